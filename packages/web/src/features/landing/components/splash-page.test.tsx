import { apiPaths } from '@lockit/contract';
import { act, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MainLayout } from '@/components/layout/main-layout';
import { fakeApi, route } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';
import { advance, installFakeClock } from '@/testing/timers';
import { HomePage } from './home-page';
import { SplashPage } from './splash-page';

// Eager routes: no lazy chunk to wait for, so the clock can be fully fake.
const routes = [
  {
    element: <MainLayout />,
    children: [
      { path: '/', element: <SplashPage /> },
      { path: '/home', element: <HomePage /> },
    ],
  },
];

describe('Splash', () => {
  beforeEach(() => {
    installFakeClock();
  });

  async function renderSplash() {
    const app = renderApp('/', { routes });
    await advance(0);
    return app;
  }

  it('shows the gradient card with the product name and the tagline', async () => {
    fakeApi();
    await renderSplash();
    expect(screen.getByRole('heading', { name: 'Lockit' })).toBeInTheDocument();
    expect(screen.getByText('Lock it. Save it. Own it.')).toBeInTheDocument();
  });

  it('shows "Loading Home..." after 2.5 s and goes to /home 0.8 s later', async () => {
    fakeApi();
    const app = await renderSplash();

    await advance(2499);
    expect(screen.queryByText('Loading Home...')).not.toBeInTheDocument();
    await advance(1);
    expect(screen.getByText('Loading Home...')).toBeInTheDocument();
    expect(app.pathname()).toBe('/');

    await advance(799);
    expect(app.pathname()).toBe('/');
    await advance(1);
    expect(app.pathname()).toBe('/home');
    expect(screen.getByRole('heading', { name: 'What is Lockit?' })).toBeInTheDocument();
  });

  it('keeps "Loading Home..." on screen for 0.8 s even when a busy page showed it late', async () => {
    fakeApi();
    const app = await renderSplash();

    // One act: the card's timer fires at 2.5 s, but React renders only when the act ends, at 3 s.
    await advance(3000);
    expect(screen.getByText('Loading Home...')).toBeInTheDocument();
    await advance(799);
    expect(app.pathname()).toBe('/');
    await advance(1);
    expect(app.pathname()).toBe('/home');
  });

  it('counts its timings from the first paint of the prerendered page, not from when the app ran', async () => {
    // The card painted from the HTML at 100 ms; the app hydrates it at 700 ms.
    vi.spyOn(performance, 'now').mockReturnValue(700);
    vi.spyOn(performance, 'getEntriesByName').mockImplementation((name) =>
      name === 'first-contentful-paint' ? [{ name, startTime: 100 } as PerformanceEntry] : [],
    );
    fakeApi();
    const app = await renderSplash();

    await advance(1899);
    expect(screen.queryByText('Loading Home...')).not.toBeInTheDocument();
    await advance(1);
    expect(screen.getByText('Loading Home...')).toBeInTheDocument();
    await advance(799);
    expect(app.pathname()).toBe('/');
    await advance(1);
    expect(app.pathname()).toBe('/home');
  });

  it('makes a silent token refresh on mount and only logs the answer', async () => {
    const api = fakeApi({ [route('POST', apiPaths.refreshToken)]: { status: 200, body: { message: 'Token refreshed' } } });
    await renderSplash();
    await act(async () => {});
    expect(api.to('POST', apiPaths.refreshToken)).toHaveLength(1);
    expect(api.to('POST', apiPaths.refreshToken)[0]?.credentials).toBe('include');
    expect(console.info).toHaveBeenCalledWith('[Lockit] Token refresh: Token refreshed');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('skips the refresh in a browser that surely has no session, logs why, and moves on', async () => {
    const api = fakeApi({}, { sessionHint: false });
    const app = await renderSplash();
    await advance(0);
    expect(console.warn).toHaveBeenCalledWith('[Lockit] Token refresh failed: Not signed in: the request was not sent.');
    await advance(2500);
    await advance(800);
    expect(app.pathname()).toBe('/home');
    expect(api.requests).toEqual([]);
  });

  it('only logs a failed refresh and still moves on to /home', async () => {
    const api = fakeApi({ [route('POST', apiPaths.refreshToken)]: 'network-error' });
    const app = await renderSplash();
    await advance(0);
    expect(console.warn).toHaveBeenCalledWith('[Lockit] Token refresh failed: Network error: the server could not be reached.');
    await advance(2500);
    await advance(800);
    expect(app.pathname()).toBe('/home');
    expect(api.to('POST', apiPaths.refreshToken).length).toBeGreaterThanOrEqual(1);
  });
});
