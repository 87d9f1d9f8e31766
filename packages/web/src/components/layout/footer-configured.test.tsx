import { screen, within } from '@testing-library/react';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';

// Before any import reads them: the site settings are read once, as the build does.
vi.hoisted(() => {
  vi.stubEnv('VITE_LOCKIT_AUTHOR_NAME', 'Ada Lovelace');
  vi.stubEnv('VITE_LOCKIT_AUTHOR_URL', 'https://ada.example.org/');
  vi.stubEnv(
    'VITE_LOCKIT_SOCIAL_LINKS',
    'GitHub=https://github.com/ada,Mastodon=https://mastodon.example/@ada,Blog=https://ada.example.org/blog',
  );
});
afterAll(() => vi.unstubAllEnvs());

describe('Footer, configured by VITE_LOCKIT_*', () => {
  it('credits the configured author and shows the configured profiles, each opening in a new tab', async () => {
    fakeApi();
    renderApp('/home');
    const footer = screen.getByRole('contentinfo');
    const social = within(within(footer).getByRole('list', { name: 'Social links' })).getAllByRole('link');
    expect(social.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['GitHub', 'https://github.com/ada'],
      ['Mastodon', 'https://mastodon.example/@ada'],
      ['Blog', 'https://ada.example.org/blog'],
    ]);
    const credit = within(footer).getByRole('link', { name: 'Ada Lovelace' });
    expect(credit).toHaveAttribute('href', 'https://ada.example.org/');
    expect(within(footer).getByText(/Designed and built by/)).toHaveTextContent('Designed and built by Ada Lovelace.');
    for (const link of [...social, credit]) {
      expect(link).toHaveAttribute('target', '_blank');
      expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    }
    await screen.findByRole('heading', { name: 'What is Lockit?' });
  });
});
