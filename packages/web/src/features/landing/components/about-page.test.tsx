import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { site } from '@/config/site';
import { fakeApi } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';

describe('About', () => {
  it('has the three sections and a credit line with an external profile link', async () => {
    fakeApi();
    renderApp('/about');
    expect(await screen.findByRole('heading', { name: 'What is Lockit?' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'How We Protect Your Data' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Why I Built It' })).toBeInTheDocument();
    expect(screen.getByText(/encrypted end to end/)).toBeInTheDocument();
    expect(screen.getByText(/No third-party sharing, no analytics/)).toBeInTheDocument();
    const credit = within(screen.getByRole('main')).getByRole('link', { name: site.author.name });
    expect(credit).toHaveAttribute('href', site.author.profileUrl);
  });
});
