import { screen, within } from '@testing-library/react';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';

// Before any import reads it: the meta element the server writes into every page it sends.
vi.hoisted(() => {
  const meta = document.createElement('meta');
  meta.name = 'lockit-site';
  meta.content = JSON.stringify({
    author: { label: 'Ada Lovelace', href: 'https://ada.example.org/' },
    social: [
      { label: 'GitHub', href: 'https://github.com/ada' },
      { label: 'Mastodon', href: 'https://mastodon.example/@ada' },
      { label: 'Blog', href: 'https://ada.example.org/blog' },
    ],
  });
  document.head.append(meta);
});
afterAll(() => document.head.querySelector('meta[name="lockit-site"]')?.remove());

describe('Footer, configured by the server (LOCKIT_*)', () => {
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
