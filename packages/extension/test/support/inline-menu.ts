import type { Frame, Page } from 'playwright-core';
import { expect } from 'vitest';

/** The inline menu's frame in `site`, once the content script placed it. */
export async function menuFrameOf(site: Page): Promise<Frame> {
  const find = () => site.frames().find((frame) => frame.url().includes('/menu.html'));
  await expect.poll(() => find() !== undefined).toBe(true);
  return find()!;
}

/** A real mouse click on the menu's first button, at its place in the page. */
export async function clickMenu(site: Page): Promise<void> {
  const box = await site.evaluate(() => {
    const host = [...document.body.children].find((element) => element.tagName.startsWith('LOCKIT-'))!;
    const rect = host.getBoundingClientRect();
    return { x: rect.left + 40, y: rect.top + 20 };
  });
  await site.mouse.click(box.x, box.y);
}
