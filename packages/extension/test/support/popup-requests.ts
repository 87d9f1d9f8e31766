import type { Frame, Page } from 'playwright-core';
import type { Answer, ItemSummary } from '../../src/shared/messages';

/** A request from the extension's own page, as its buttons send it. */
export function ask<T>(popup: Page, request: unknown): Promise<Answer<T>> {
  return popup.evaluate((message) => chrome.runtime.sendMessage(message), request) as Promise<Answer<T>>;
}

/** The value of an answer that must have succeeded. */
export async function expectOk<T>(answer: Promise<Answer<T>>): Promise<T> {
  const settled = await answer;
  if (!settled.ok) throw new Error(settled.error);
  return settled.value;
}

/** The id of the vault's item called `name`, as the popup's list names it. */
export async function itemId(popup: Page, name: string): Promise<string> {
  const items = await expectOk(ask<ItemSummary[]>(popup, { type: 'items', query: name }));
  const item = items.find((candidate) => candidate.name === name);
  if (!item) throw new Error(`No item ${name}`);
  return item.id;
}

/** The values of every input of a page and its frames. */
export async function fieldValues(page: Page): Promise<string[]> {
  const values: string[] = [];
  for (const frame of page.frames() as Frame[]) {
    values.push(...(await frame.$$eval('input', (inputs) => inputs.map((input) => (input as HTMLInputElement).value))));
  }
  return values;
}
