import { act } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { parseSiteSettings, withSiteSettings } from '@lockit/contract/site-settings';

const ADA = parseSiteSettings({
  LOCKIT_AUTHOR_NAME: 'Ada Lovelace',
  LOCKIT_AUTHOR_URL: 'https://ada.example.org/',
  LOCKIT_SOCIAL_LINKS: 'GitHub=https://github.com/ada,Docs=/home',
});

/**
 * The About page and the footer, as the prerender and the app render them (inside a router, as
 * both do: their links navigate through it), from a fresh module graph.
 */
async function creditedParts() {
  const [{ createElement }, { MemoryRouter }, { AboutPage }, { Footer }] = await Promise.all([
    import('react'),
    import('react-router'),
    import('@/features/landing/components/about-page'),
    import('@/components/layout/footer'),
  ]);
  return createElement(MemoryRouter, { initialEntries: ['/about'] }, createElement(AboutPage), createElement(Footer));
}

describe('a prerendered page with the server’s site settings written in (decision 0082)', () => {
  it('is hydrated without a mismatch, keeping the server’s credit and links', async () => {
    // The build's prerender: no meta element, so the defaults.
    const { renderToString } = await import('react-dom/server');
    const markup = renderToString(await creditedParts());
    expect(markup).toContain('the Lockit contributors');

    // What the server sends: the same page with the settings written in.
    const sent = withSiteSettings(`<html><head></head><body><div id="root">${markup}</div></body></html>`, ADA);
    const page = new DOMParser().parseFromString(sent, 'text/html');
    for (const meta of page.head.querySelectorAll('meta')) document.head.append(meta);
    const root = document.createElement('div');
    root.innerHTML = page.getElementById('root')!.innerHTML;
    document.body.append(root);
    const serverCredit = root.querySelector('[data-site="about-credit"] a');
    expect(serverCredit?.textContent).toBe('Ada Lovelace');

    // The app as a browser loads it with that page: its modules read the meta element afresh.
    vi.resetModules();
    const { createRoot, hydrateRoot } = await import('react-dom/client');
    const parts = await creditedParts();
    const onRecoverableError = vi.fn();
    const reactRoot = await act(async () => hydrateRoot(root, parts, { onRecoverableError }));

    expect(onRecoverableError).not.toHaveBeenCalled();
    // The very elements the server sent, adopted.
    expect(root.querySelector('[data-site="about-credit"] a')).toBe(serverCredit);
    expect(serverCredit).toHaveAttribute('href', 'https://ada.example.org/');
    expect(serverCredit).toHaveAttribute('target', '_blank');
    const social = [...root.querySelectorAll('[data-site="social-links"] a')].map((link) => [
      link.textContent,
      link.getAttribute('href'),
    ]);
    expect(social).toEqual([
      ['GitHub', 'https://github.com/ada'],
      ['Docs', '/home'],
    ]);
    expect(root.textContent).not.toContain('the Lockit contributors');

    // React leaves set-as-HTML markup alone when it hydrates: that it matches is shown by the
    // app's own render (a page it navigates to), which must make the very markup the server wrote.
    const fresh = document.createElement('div');
    const freshRoot = createRoot(fresh);
    await act(async () => freshRoot.render(await creditedParts()));
    for (const part of ['about-credit', 'footer-credit', 'social-links']) {
      const selector = `[data-site="${part}"]`;
      expect(fresh.querySelector(selector)?.innerHTML, part).toBe(root.querySelector(selector)?.innerHTML);
    }
    act(() => {
      reactRoot.unmount();
      freshRoot.unmount();
    });
    root.remove();
  });
});
