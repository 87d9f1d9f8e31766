import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';

describe('Footer', () => {
  it('shows the blurb, three social links, the copyright with the current year and a credit line', async () => {
    fakeApi();
    renderApp('/home');
    const footer = screen.getByRole('contentinfo');
    expect(within(footer).getByText(/No tracking, no ads, no data selling/)).toBeInTheDocument();
    expect(within(within(footer).getByRole('list', { name: 'Social links' })).getAllByRole('link')).toHaveLength(3);
    expect(within(footer).getByText(`© ${new Date().getFullYear()} Lockit`)).toBeInTheDocument();
    expect(within(footer).getByText(/Designed and built by/)).toBeInTheDocument();
    await screen.findByRole('heading', { name: 'What is Lockit?' });
  });

  it('unconfigured, credits the Lockit contributors and links only to pages of this app, in the same tab', async () => {
    fakeApi();
    renderApp('/home');
    const footer = screen.getByRole('contentinfo');
    const social = within(within(footer).getByRole('list', { name: 'Social links' })).getAllByRole('link');
    expect(social.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Home', '/home'],
      ['About', '/about'],
      ['Vault', '/vault'],
    ]);
    const credit = within(footer).getByRole('link', { name: 'the Lockit contributors' });
    expect(credit).toHaveAttribute('href', '/about');
    for (const link of [...social, credit]) expect(link).not.toHaveAttribute('target');
    await screen.findByRole('heading', { name: 'What is Lockit?' });
  });

  it("follows its links to this app's own pages inside the app, without loading the page again", async () => {
    fakeApi();
    const app = renderApp('/home');
    await screen.findByRole('heading', { name: 'What is Lockit?' });
    const footer = screen.getByRole('contentinfo');
    await app.user.click(within(footer).getByRole('link', { name: 'the Lockit contributors' }));
    expect(await screen.findByRole('heading', { level: 1, name: /About/ })).toBeInTheDocument();
    await app.user.click(within(within(footer).getByRole('list', { name: 'Social links' })).getByRole('link', { name: 'Home' }));
    expect(await screen.findByRole('heading', { name: 'What is Lockit?' })).toBeInTheDocument();
  });
});
