import { apiPaths } from '@lockit/contract';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { loadContract } from '@/lib/contract';
import { fakeApi, route } from '@/testing/fake-api';
import { renderApp } from '@/testing/render-app';

// Spied, not replaced: the schemas (zod) must not load on a visit that sends nothing.
vi.mock('@/lib/contract', { spy: true });

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

  it('sends nothing at all to a browser that surely has no session (no hint cookie)', async () => {
    vi.mocked(loadContract).mockClear();
    const api = fakeApi({}, { sessionHint: false });
    renderApp('/home');
    expect(await screen.findByRole('link', { name: 'Sign In' })).toBeInTheDocument();
    // The page's check and the header's both answer "signed out" without a request.
    await waitFor(() => expect(console.info).toHaveBeenCalledWith('[Lockit] Session check: signed out'));
    expect(api.requests).toEqual([]);
    expect(loadContract).not.toHaveBeenCalled();
    expect(console.warn).not.toHaveBeenCalled();
  });

  it('runs the session check on load and ignores the answer', async () => {
    const api = fakeApi({ [route('POST', apiPaths.verifySession)]: 'network-error' });
    renderApp('/home');
    // One check from the page, one from the header; a failure changes nothing on screen.
    await waitFor(() => expect(api.to('POST', apiPaths.verifySession)).toHaveLength(2));
    expect(loadContract).toHaveBeenCalled();
    await waitFor(() => expect(console.warn).toHaveBeenCalledWith(expect.stringContaining('Session check failed')));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'What is Lockit?' })).toBeInTheDocument();
  });
});
