import { screen, within } from '@testing-library/react';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';

// Before any import reads them: the site settings are read once, as the build does.
vi.hoisted(() => {
  vi.stubEnv('VITE_LOCKIT_AUTHOR_NAME', 'Ada Lovelace');
  vi.stubEnv('VITE_LOCKIT_AUTHOR_URL', 'https://ada.example.org/');
});
afterAll(() => vi.unstubAllEnvs());

describe('About, configured by VITE_LOCKIT_*', () => {
  it('ends with a credit line linking to the configured external profile', async () => {
    fakeApi();
    renderApp('/about');
    await screen.findByRole('heading', { name: 'Why I Built It' });
    const credit = within(screen.getByRole('main')).getByRole('link', { name: 'Ada Lovelace' });
    expect(credit).toHaveAttribute('href', 'https://ada.example.org/');
    expect(credit).toHaveAttribute('target', '_blank');
    expect(credit).toHaveAttribute('rel', 'noopener noreferrer');
    expect(credit.parentElement).toHaveTextContent('Made by Ada Lovelace.');
  });
});
