import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, useLocation, useRoutes, type RouteObject } from 'react-router';
import { vi } from 'vitest';
import type { SignupMode } from '@lockit/contract/paths';
import { AppProvider } from '@/app/provider';
import { routes as appRoutes } from '@/app/router';
import { Keyring } from '@/lib/keyring';
import { createQueryClient } from '@/lib/query-client';
import type { TabKeyStoreSource } from '@/lib/reload-unlock/use-reload-unlock';

interface RenderAppOptions {
  routes?: RouteObject[];
  keyring?: Keyring;
  /** The sign-up mode the page was served for (its meta element); default open. */
  signupMode?: SignupMode | undefined;
  /** Where a reload's tab keys live (memoryTabKeyStore); default the browser's IndexedDB, which jsdom lacks. */
  tabKeyStore?: TabKeyStoreSource;
}

/**
 * Renders the production providers and routes (or the given ones) at `path`, in the router
 * mode the app uses (declarative, with a memory history instead of the browser's). With fake
 * timers active, user events advance them.
 */
export function renderApp(path: string, options: RenderAppOptions = {}) {
  const keyring = options.keyring ?? new Keyring();
  const queryClient = createQueryClient();
  const location = { pathname: path.split('?')[0] ?? path };
  const user = userEvent.setup(vi.isFakeTimers() ? { advanceTimers: vi.advanceTimersByTime.bind(vi) } : {});
  const result = render(
    <AppProvider
      queryClient={queryClient}
      keyring={keyring}
      signupMode={'signupMode' in options ? options.signupMode : 'open'}
      tabKeyStore={options.tabKeyStore}
    >
      <MemoryRouter initialEntries={[path]}>
        <Routes routes={options.routes ?? appRoutes} />
        <LocationProbe onLocation={(pathname) => (location.pathname = pathname)} />
      </MemoryRouter>
    </AppProvider>,
  );
  return { ...result, user, keyring, queryClient, pathname: () => location.pathname };
}

function Routes({ routes }: { routes: RouteObject[] }) {
  return useRoutes(routes);
}

/** Reports the location the routes last rendered (a navigation renders as a transition). */
function LocationProbe({ onLocation }: { onLocation: (pathname: string) => void }) {
  onLocation(useLocation().pathname);
  return null;
}
