import { screen, within } from '@testing-library/react';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';

// Before any import reads it: the meta element the server writes into every page it sends.
vi.hoisted(() => {
  const meta = document.createElement('meta');
  meta.name = 'lockit-site';
  meta.content = JSON.stringify({ author: { label: 'Ada Lovelace', href: 'https://ada.example.org/' }, social: [] });
  document.head.append(meta);
});
afterAll(() => document.head.querySelector('meta[name="lockit-site"]')?.remove());

describe('About, configured by the server (LOCKIT_*)', () => {
  it('ends with a credit line linking to the configured external profile', async () => {
    fakeApi();
    renderApp('/about');
    await screen.findByRole('heading', { name: 'Why I Built It' });
    const credit = within(screen.getByRole('main')).getByRole('link', { name: 'Ada Lovelace' });
    expect(credit).toHaveAttribute('href', 'https://ada.example.org/');
    expect(credit).toHaveAttribute('target', '_blank');
    expect(credit).toHaveAttribute('rel', 'noopener noreferrer');
    expect(credit.closest('p')).toHaveTextContent('Made by Ada Lovelace.');
  });
});
