import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';

describe('About', () => {
  it('has the three sections', async () => {
    fakeApi();
    renderApp('/about');
    expect(await screen.findByRole('heading', { name: 'What is Lockit?' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'How We Protect Your Data' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Why I Built It' })).toBeInTheDocument();
    expect(screen.getByText(/encrypted end to end/)).toBeInTheDocument();
    expect(screen.getByText(/No third-party sharing, no analytics/)).toBeInTheDocument();
  });

  it('unconfigured, credits the Lockit contributors without a link back to this page', async () => {
    fakeApi();
    renderApp('/about');
    const main = screen.getByRole('main');
    // The credit is the server's markup in a span of its own (decision 0082): the line reads as one.
    expect(
      await within(main).findByText(
        (_text, element) => element?.tagName === 'P' && element.textContent === 'Made by the Lockit contributors.',
      ),
    ).toBeInTheDocument();
    expect(within(main).queryByRole('link', { name: 'the Lockit contributors' })).not.toBeInTheDocument();
  });
});
