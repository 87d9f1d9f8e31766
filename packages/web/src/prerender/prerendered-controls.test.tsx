import { describe, expect, it } from 'vitest';
import { renderPage } from './render-page';

/** The controls of a page as the build prerenders it, before any script has run. */
async function prerenderedControls(url: string): Promise<{ name: string; ready: boolean }[]> {
  const html = await renderPage(url, 'open');
  const page = new DOMParser().parseFromString(html, 'text/html');
  return [...page.querySelectorAll('button, input')].map((control) => ({
    name: control.getAttribute('aria-label') ?? control.textContent?.trim() ?? control.getAttribute('name') ?? '',
    ready: !control.hasAttribute('disabled') && !control.hasAttribute('readonly'),
  }));
}

describe('Prerendered pages before their script runs', () => {
  // A click on a prerendered button before the app hydrates reaches no handler and is lost: the
  // person (or a quick test) sees nothing happen. Such a control says it is not ready instead.
  it.each(['/signin', '/signup'])('every control on %s waits for the app', async (url) => {
    const controls = await prerenderedControls(url);
    expect(controls.length).toBeGreaterThan(2);
    expect(controls.filter((control) => control.ready)).toEqual([]);
  });
});
