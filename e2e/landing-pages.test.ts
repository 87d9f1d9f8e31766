import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { PRERENDERED_PAGES } from '@lockit/contract';
import { useE2e } from './support/setup';

const e2e = useE2e();

/** What each landing route shows first, from its HTML alone: its heading level one. */
const FIRST_CONTENT: Record<keyof typeof PRERENDERED_PAGES, { heading: string; text: string }> = {
  '/': { heading: 'Lockit', text: 'Lock it. Save it. Own it.' },
  '/home': { heading: 'Your passwords, locked and yours', text: 'Get Started' },
  '/about': { heading: 'About Lockit', text: 'What is Lockit?' },
  '/signin': { heading: 'Sign In', text: 'Password' },
  '/signup': { heading: 'Sign Up', text: 'Password' },
};
const ROUTES = Object.keys(FIRST_CONTENT) as (keyof typeof FIRST_CONTENT)[];

/** Layout shifts since the page started, as the browser scores them (CLS). */
async function layoutShift(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        new PerformanceObserver((list) => {
          const shifts = list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[];
          resolve(shifts.filter((shift) => !shift.hadRecentInput).reduce((sum, shift) => sum + shift.value, 0));
        }).observe({ type: 'layout-shift', buffered: true });
        setTimeout(() => resolve(0), 200);
      }),
  );
}

describe('the landing pages, prerendered', () => {
  it('are sent as HTML holding their first content, with no inline script, handler or style', async () => {
    for (const route of ROUTES) {
      const response = await fetch(`${e2e.server.url}${route}`);
      expect(response.status, route).toBe(200);
      const html = await response.text();
      const root = /<div id="root">([\s\S]*)<\/div>\s*<script\b/.exec(html)?.[1] ?? '';
      const heading = /<h1\b[^>]*>([\s\S]*?)<\/h1>/.exec(root)?.[1]?.replace(/<[^>]+>/g, '');
      expect(heading, route).toBe(FIRST_CONTENT[route].heading);
      expect(root.replace(/<[^>]+>/g, ''), route).toContain(FIRST_CONTENT[route].text);
      const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
      expect(scripts, route).toHaveLength(1);
      for (const [, attributes, content] of scripts) {
        expect(attributes, route).toMatch(/\bsrc="\/assets\/[^"]+\.js"/);
        expect(content!.trim(), route).toBe('');
      }
      expect(html, route).not.toMatch(/\son[a-z]+\s*=|<style\b|\sstyle\s*=|javascript:/i);
    }
  });

  it('paint their first content with JavaScript turned off', async () => {
    const context = await e2e.browser.newContext({ baseURL: e2e.server.url, javaScriptEnabled: false });
    const page = await context.newPage();
    for (const route of ROUTES) {
      await page.goto(route);
      const heading = page.getByRole('heading', { level: 1, name: FIRST_CONTENT[route].heading });
      expect(await heading.isVisible(), route).toBe(true);
      expect(await page.getByRole('link', { name: 'Sign In' }).first().isVisible(), route).toBe(true);
    }
    await context.close();
  });

  it('take no input the app would miss: before it runs, fields are read-only and Sign In is disabled and sends nothing', async () => {
    const context = await e2e.browser.newContext({ baseURL: e2e.server.url, javaScriptEnabled: false });
    const page = await context.newPage();
    const requests: string[] = [];
    page.on('request', (request) => requests.push(new URL(request.url()).pathname + new URL(request.url()).search));
    await page.goto('/signin');
    expect(await page.getByLabel('Password', { exact: true }).isEditable()).toBe(false);
    expect(await page.getByLabel('Username').isEditable()).toBe(false);
    const signIn = page.getByRole('button', { name: 'Sign In', exact: true });
    expect(await signIn.isDisabled()).toBe(true);
    requests.length = 0;
    // A click all the same (forced past the disabled check): the page as sent submits nothing.
    await signIn.click({ force: true });
    await page.waitForTimeout(300);
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe('/signin');
    expect(requests).toEqual([]);
    await context.close();
  });

  it('are taken over by the app in place: the same elements, no layout shift, no error', async () => {
    const context = await e2e.newContext();
    const page = await context.newPage();
    // Every layout shift of each page with its time, and when the splash said "Loading Home..."
    // and left for /home: on a slow machine the splash may have moved on before the test looks.
    await page.addInitScript(() => {
      const seen = { shifts: [] as { at: number; value: number }[], loadingAt: Number.NaN, homeAt: Number.NaN };
      (window as unknown as { splashShifts: typeof seen }).splashShifts = seen;
      new PerformanceObserver((list) => {
        for (const shift of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[])
          if (!shift.hadRecentInput) seen.shifts.push({ at: shift.startTime, value: shift.value });
      }).observe({ type: 'layout-shift', buffered: true });
      new MutationObserver(() => {
        if (Number.isNaN(seen.loadingAt) && document.body?.textContent?.includes('Loading Home...'))
          seen.loadingAt = performance.now();
        if (Number.isNaN(seen.homeAt) && location.pathname === '/home') seen.homeAt = performance.now();
      }).observe(document, { childList: true, subtree: true, characterData: true });
    });
    for (const route of ROUTES) {
      // Hold the app back until the page as sent has been seen and its heading remembered.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/assets/main-*.js', async (request) => {
        await held;
        await request.continue();
      });
      await page.goto(route, { waitUntil: 'load' });
      await page.evaluate(() => {
        (window as unknown as { sentHeading: Element | null }).sentHeading = document.querySelector('h1');
      });
      expect(await page.locator('#mobile-menu').count(), `${route}: the app has not run yet`).toBe(0);
      release();
      // The mobile menu's panel is added once the app runs.
      await page.locator('#mobile-menu').waitFor({ state: 'attached' });
      await page.waitForLoadState('networkidle');
      const same = await page.evaluate(() => {
        const sent = (window as unknown as { sentHeading: Element | null }).sentHeading;
        return sent !== null && sent.isConnected && sent === document.querySelector('h1');
      });
      expect(same, `${route}: the heading sent in the HTML is the one on screen`).toBe(true);
      expect(await layoutShift(page), route).toBe(0);
      if (route === '/') {
        // The splash's own change, 2.5 s after the first paint, moves nothing either, up to /home.
        await page.waitForFunction(
          () => !Number.isNaN((window as unknown as { splashShifts: { homeAt: number } }).splashShifts.homeAt),
        );
        await page.waitForTimeout(300); // layout-shift entries are delivered after the frame
        const splash = await page.evaluate(() => {
          const { shifts, loadingAt, homeAt } = (
            window as unknown as { splashShifts: { shifts: { at: number; value: number }[]; loadingAt: number; homeAt: number } }
          ).splashShifts;
          return { loadingAt, homeAt, shift: shifts.filter(({ at }) => at < homeAt).reduce((sum, { value }) => sum + value, 0) };
        });
        expect(splash.loadingAt, `${route}: "Loading Home..." was shown before /home`).toBeLessThan(splash.homeAt);
        expect(splash.shift, `${route}: "Loading Home..." shown`).toBe(0);
      }
      await page.unroute('**/assets/main-*.js');
    }
    // Hydration mismatches are reported as page errors: useE2e fails the test on any.
    await context.close();
  });

  it('count the splash timings from the first paint: "Loading Home..." 2.5 s after it, /home 0.8 s later', async () => {
    const context = await e2e.newContext();
    const page = await context.newPage();
    await page.addInitScript(() => {
      const seen = { loading: Number.NaN, home: Number.NaN };
      (window as unknown as { splash: typeof seen }).splash = seen;
      new MutationObserver(() => {
        if (Number.isNaN(seen.loading) && document.body?.textContent?.includes('Loading Home...'))
          seen.loading = performance.now();
        if (Number.isNaN(seen.home) && location.pathname === '/home') seen.home = performance.now();
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto('/');
    await page.waitForURL('**/home', { timeout: 10_000 });
    const { fcp, loading, home } = await page.evaluate(() => ({
      fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
      ...(window as unknown as { splash: { loading: number; home: number } }).splash,
    }));
    expect(loading - fcp).toBeGreaterThanOrEqual(2450);
    expect(loading - fcp).toBeLessThan(2700);
    expect(home - loading).toBeGreaterThanOrEqual(750);
    expect(home - loading).toBeLessThan(1000);
    await context.close();
  });
});
