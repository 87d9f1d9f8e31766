import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { SESSION_HINT_COOKIE } from '@lockit/contract';
import { webDist } from '@lockit/test-support';
import { useE2e } from './support/setup';
import { header, newAccount, signIn, signUpAndVerify } from './support/journeys';

const e2e = useE2e();

interface Watched {
  page: Page;
  /** Every console error, Chromium's own "Failed to load resource" (a 4xx answer) included. */
  errors: string[];
  api: string[];
}

/** A page whose API requests and console errors are recorded, with nothing forgiven. */
async function watchedPage(context: BrowserContext): Promise<Watched> {
  const page = await context.newPage();
  const watched: Watched = { page, errors: [], api: [] };
  page.on('pageerror', (error) => watched.errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') watched.errors.push(message.text());
  });
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/')) watched.api.push(`${request.method()} ${url.pathname}`);
  });
  return watched;
}

describe('a first visit', () => {
  it('to /home and to / (splash) sends no API request and logs no error, CSP violations included', async () => {
    const context = await e2e.newContext();
    const visit = await watchedPage(context);
    await visit.page.goto('/home', { waitUntil: 'networkidle' });
    await header(visit.page).getByRole('link', { name: 'Sign In' }).first().waitFor();
    await visit.page.goto('/', { waitUntil: 'networkidle' });
    await visit.page.waitForURL('**/home', { timeout: 10_000 });
    await visit.page.waitForLoadState('networkidle');
    expect(visit.api).toEqual([]);
    expect(visit.errors).toEqual([]);
    expect((await context.cookies()).map((cookie) => cookie.name)).toEqual([]);
    await context.close();
  });

  it('after sign-in checks the session (zod loaded under the CSP), and after logout sends nothing again', async () => {
    const account = newAccount('first');
    const context = await e2e.newContext();
    const visit = await watchedPage(context);
    await signUpAndVerify(visit.page, e2e.smtp, account);
    await signIn(visit.page, account.username, account.password);

    const hint = (await context.cookies()).find((cookie) => cookie.name === SESSION_HINT_COOKIE);
    expect(hint).toMatchObject({ value: '1', httpOnly: false, sameSite: 'Strict', path: '/' });

    visit.api.length = 0;
    await visit.page.goto('/home', { waitUntil: 'networkidle' });
    await header(visit.page).getByRole('link', { name: 'Profile' }).first().waitFor();
    expect(visit.api).toContain('POST /api/users/verify');

    await header(visit.page).getByRole('button', { name: 'Logout' }).first().click();
    await visit.page.waitForURL('**/signin');
    // Only the device cookie stays (one per path: prelogin, sign-in and passkey sign-in): it marks a
    // browser that signed in before, so strangers' failures never lock it out (decision 0047).
    expect((await context.cookies()).map((cookie) => cookie.name)).toEqual(['lockit_device', 'lockit_device', 'lockit_device']);
    visit.api.length = 0;
    await visit.page.goto('/home', { waitUntil: 'networkidle' });
    await header(visit.page).getByRole('link', { name: 'Sign In' }).first().waitFor();
    expect(visit.api).toEqual([]);

    expect(visit.errors).toEqual([]);
    await context.close();
  });

  it('runs any of the app scripts first under the CSP without a violation: zod is jitless in every chunk that builds schemas', async () => {
    // Which lazy chunk runs first depends on what the person opens and on the network; a chunk
    // whose schemas are built before zod is set jitless makes zod probe `new Function`, which
    // the CSP reports. Each page here runs one chunk before anything else of the app.
    const chunks = readdirSync(join(webDist, 'assets')).filter((file) => file.endsWith('.js') && !/-worker-/.test(file));
    expect(chunks.length).toBeGreaterThan(10);
    const context = await e2e.newContext();
    const page = await context.newPage();
    // The server's 404 page carries the same CSP as the app and runs none of its scripts.
    await page.goto('/api/not-a-route');
    const violations: string[] = [];
    for (const chunk of chunks) {
      await page.reload();
      // As a string: vitest would rewrite an `import()` written in this file.
      const reported = await page.evaluate<string[]>(`(async () => {
        const seen = [];
        // Chunks that share code with the app shell run it too: give it the element it renders in.
        document.body.append(Object.assign(document.createElement('div'), { id: 'root' }));
        document.addEventListener('securitypolicyviolation', (event) => seen.push(event.violatedDirective + ' ' + event.sourceFile));
        await import('/assets/${chunk}').catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, 20));
        return seen;
      })()`);
      violations.push(...reported);
    }
    expect(violations).toEqual([]);
    await context.close();
  });
});
