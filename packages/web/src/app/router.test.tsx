import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, signedInRoutes } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';

describe('Routes', () => {
  it.each([
    ['/', 'heading', 'Lockit'],
    ['/home', 'heading', 'What is Lockit?'],
    ['/about', 'heading', 'How We Protect Your Data'],
    ['/signin', 'heading', 'Sign In'],
    ['/signup', 'button', 'Sign Up'],
    ['/vault', 'heading', 'Your Password Vault'],
    ['/profile', 'heading', 'alice'],
  ] as const)('%s renders its screen inside the shared layout', async (path, role, name) => {
    fakeApi(path === '/vault' || path === '/profile' ? signedInRoutes() : {});
    renderApp(path);
    expect(await screen.findByRole(role, { name })).toBeInTheDocument();
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toBeInTheDocument();
  });

  it.each(['/vault', '/profile', '/signup'])(
    '%s in a browser that surely has no session (no hint cookie) sends no session call',
    async (path) => {
      const api = fakeApi({}, { sessionHint: false });
      renderApp(path);
      if (path === '/vault') expect(await screen.findByText(/^Access Denied/)).toBeInTheDocument();
      if (path === '/profile') expect(await screen.findByRole('heading', { name: 'Sign In' })).toBeInTheDocument();
      if (path === '/signup') expect(await screen.findByRole('button', { name: 'Sign Up' })).toBeInTheDocument();
      expect(api.requests).toEqual([]);
    },
  );

  it('answers an unknown address with "Page not found"', async () => {
    fakeApi();
    renderApp('/nowhere');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
  });
});
