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

  it('answers an unknown address with "Page not found"', async () => {
    fakeApi();
    renderApp('/nowhere');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
  });
});
