import { apiPaths } from '@lockit/contract';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, route } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';

describe('Home', () => {
  it('shows the hero, the three feature cards, "What is Lockit?", How It Works and a testimonial', () => {
    fakeApi();
    renderApp('/home');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Your passwords, locked and yours');
    for (const title of ['100% Encrypted', 'Fast & Reliable', 'Zero Tracking']) {
      expect(screen.getByRole('heading', { name: title })).toBeInTheDocument();
    }
    expect(screen.getByRole('heading', { name: 'What is Lockit?' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'How It Works' })).toBeInTheDocument();
    for (const step of ['Create Account', 'Save Passwords', 'Access Anytime']) {
      expect(screen.getByRole('heading', { name: step })).toBeInTheDocument();
    }
    expect(screen.getByRole('blockquote')).toBeInTheDocument();
    expect(screen.getByText(/no tracking and no data selling/)).toBeInTheDocument();
  });

  it.each([
    ['Get Started', '/signup'],
    ['Go to Vault', '/vault'],
    ['Create Your Free Account', '/signup'],
  ])('"%s" goes to %s', async (name, target) => {
    fakeApi();
    const app = renderApp('/home');
    await app.user.click(screen.getByRole('button', { name }));
    expect(app.pathname()).toBe(target);
    await waitFor(() => expect(screen.queryByRole('progressbar', { name: 'Loading page' })).not.toBeInTheDocument());
  });

  it('runs the session check on load and ignores the answer', async () => {
    const api = fakeApi({ [route('POST', apiPaths.verifySession)]: 'network-error' });
    renderApp('/home');
    // One check from the page, one from the header; a failure changes nothing on screen.
    await waitFor(() => expect(api.to('POST', apiPaths.verifySession)).toHaveLength(2));
    await waitFor(() => expect(console.warn).toHaveBeenCalledWith(expect.stringContaining('Session check failed')));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'What is Lockit?' })).toBeInTheDocument();
  });
});
