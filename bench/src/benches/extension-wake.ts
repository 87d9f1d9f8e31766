/// <reference types="chrome" />
import type { Page } from 'playwright-core';
import type { ExtensionBrowser } from '../support/extension-browser';
import { median, percentile, printTable } from '../support/report';

const WAKES = 5;

/**
 * The service worker woken from stopped, as the browser stops an idle one: after
 * `ServiceWorker.stopWorker`, the time from an open Lockit page's `status` message to its
 * answer (the worker starts, runs its module, reads its settings and the key's session copy),
 * then the first items list (the vault read and opened again, as after every start). Beside
 * the same two messages to the worker already running, and the bare extension's empty worker
 * woken the same way (its start alone: the ceiling).
 */
export async function workerWakeBench(browser: ExtensionBrowser, lockitPage: Page, barePage: Page): Promise<void> {
  const woken = { status: [] as number[], items: [] as number[] };
  const running = { status: [] as number[], items: [] as number[] };
  const bare = { woken: [] as number[], running: [] as number[] };
  for (let run = 0; run < WAKES; run++) {
    await browser.stopWorker(browser.lockitId);
    woken.status.push(await timeMessage(lockitPage, { type: 'status' }));
    woken.items.push(await timeMessage(lockitPage, { type: 'items', query: '' }));
    running.status.push(await timeMessage(lockitPage, { type: 'status' }));
    running.items.push(await timeMessage(lockitPage, { type: 'items', query: '' }));
    await browser.stopWorker(browser.bareId);
    bare.woken.push(await timeMessage(barePage, { type: 'status' }));
    bare.running.push(await timeMessage(barePage, { type: 'status' }));
  }
  const row = (name: string, values: number[]) => [name, values[0]!, median(values), percentile(values, 95)];
  printTable(
    `Service worker woken from stopped (ServiceWorker.stopWorker): ms from the message sent to its answer, in an open extension page (${WAKES} wakes)`,
    ['message', 'first', 'median', 'p95'],
    [
      row('status, Lockit woken', woken.status),
      row('then the first items list (vault read and opened again)', woken.items),
      row('status, Lockit running', running.status),
      row('items list, Lockit running', running.items),
      row('bare worker woken (ceiling: the start alone)', bare.woken),
      row('bare worker running', bare.running),
    ],
  );
}

/** One message from an extension page to its extension's worker: ms to a successful answer. */
async function timeMessage(page: Page, request: { type: string; query?: string }): Promise<number> {
  const { ms, answer } = await page.evaluate(async (message) => {
    const started = performance.now();
    const reply = (await chrome.runtime.sendMessage(message)) as { ok: boolean; error?: string } | undefined;
    return { ms: performance.now() - started, answer: reply };
  }, request);
  if (!answer?.ok) throw new Error(`${request.type}: ${answer?.error ?? 'no answer'}`);
  return ms;
}
