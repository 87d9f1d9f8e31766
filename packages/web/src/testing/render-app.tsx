import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { vi } from 'vitest';
import { AppProvider } from '@/app/provider';
import { routes as appRoutes } from '@/app/router';
import { Keyring } from '@/lib/keyring';
import { createQueryClient } from '@/lib/query-client';

interface RenderAppOptions {
  routes?: RouteObject[];
  keyring?: Keyring;
}

/**
 * Renders the production providers and routes (or the given ones) at `path`. With fake
 * timers active, user events advance them.
 */
export function renderApp(path: string, options: RenderAppOptions = {}) {
  const keyring = options.keyring ?? new Keyring();
  const queryClient = createQueryClient();
  const router = createMemoryRouter(options.routes ?? appRoutes, { initialEntries: [path] });
  const user = userEvent.setup(vi.isFakeTimers() ? { advanceTimers: vi.advanceTimersByTime.bind(vi) } : {});
  const result = render(
    <AppProvider queryClient={queryClient} keyring={keyring}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { ...result, user, router, keyring, queryClient, pathname: () => router.state.location.pathname };
}
