import { describe, expect, it } from 'vitest';
import { PHONE } from '@lockit/test-support/chromium';
import { useE2e } from './support/setup';

const e2e = useE2e();

describe('the header at 375 px', () => {
  it('opens the slide-in menu, 90% wide, and closes it on a link and on an outside click', async () => {
    const context = await e2e.newContext({ viewport: PHONE });
    const errors = e2e.errors;
    const page = await context.newPage();
    await page.goto('/home');

    const openButton = page.getByRole('button', { name: 'Open menu' });
    const panel = page.locator('#mobile-menu');
    const panelLeft = async () => (await panel.boundingBox())?.x ?? Number.NaN;

    await openButton.click();
    await expect.poll(() => openButton.getAttribute('aria-expanded'), { timeout: 5_000 }).toBe('true');
    // The panel slides in from the right: wait until it rests at 10% from the left edge.
    await expect.poll(panelLeft, { timeout: 5_000 }).toBeCloseTo(375 * 0.1, 0);
    expect((await panel.boundingBox())?.width).toBeCloseTo(375 * 0.9, 0);

    await panel.getByRole('navigation', { name: 'Mobile' }).getByRole('link', { name: 'About' }).click();
    await page.waitForURL('**/about');
    await expect.poll(() => openButton.getAttribute('aria-expanded'), { timeout: 5_000 }).toBe('false');
    await expect.poll(panelLeft, { timeout: 5_000 }).toBeGreaterThanOrEqual(375);

    await openButton.click();
    await expect.poll(panelLeft, { timeout: 5_000 }).toBeCloseTo(375 * 0.1, 0);
    // The strip the 90% panel leaves uncovered on the left lies outside it.
    await page.mouse.click(10, 400);
    await expect.poll(() => openButton.getAttribute('aria-expanded'), { timeout: 5_000 }).toBe('false');
    await expect.poll(panelLeft, { timeout: 5_000 }).toBeGreaterThanOrEqual(375);

    expect(errors).toEqual([]);
    await context.close();
  });
});
