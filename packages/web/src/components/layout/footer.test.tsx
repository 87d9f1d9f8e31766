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
    const social = within(within(footer).getByRole('list', { name: 'Social links' })).getAllByRole('link');
    expect(social).toHaveLength(3);
    for (const link of social) {
      expect(link).toHaveAttribute('target', '_blank');
      expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    }
    expect(within(footer).getByText(`© ${new Date().getFullYear()} Lockit`)).toBeInTheDocument();
    expect(within(footer).getByText(/Designed and built by/)).toBeInTheDocument();
    await screen.findByRole('heading', { name: 'What is Lockit?' });
  });
});
