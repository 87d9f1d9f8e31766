import type { Page } from 'playwright-core';

/** What the list must show for a change to count as seen. */
export type ShownCheck =
  /** The search box holds `query` and the list shows `count` matches. */
  | { kind: 'search'; query: string; count: number }
  /** A row whose service name is exactly `text` is rendered. */
  | { kind: 'present'; text: string }
  /** The row of this entry is no longer rendered. */
  | { kind: 'absent'; entryId: string }
  /** The list is headed `heading` (a filter's name) and its first row counts as many entries as the status says. */
  | { kind: 'filter'; heading: string }
  /** The item view shows the entry named `name`. */
  | { kind: 'item'; name: string }
  /** The element at `selector` holds text other than `from` (and other than `pending`, a placeholder). */
  | { kind: 'text-changed'; selector: string; from: string; pending?: string };

/** The probes' state on `window.__lockitBench`; times are `performance.now()` milliseconds. */
export interface ProbeState {
  longTasks: Array<{ start: number; end: number }>;
  /** One per run of the app's KDF worker: postMessage to answer (worker start + Argon2id). */
  kdfMs: number[];
  /** timeStamp of the last form submit (the Unlock click), -1 before any. */
  lastSubmit: number;
  pending: Promise<ShownTimes> | null;
  arm: (startEvent: 'keydown' | 'click', check: ShownCheck) => void;
}

declare global {
  interface Window {
    __lockitBench: ProbeState;
  }
}

/**
 * Runs IN THE PAGE at document start (context.addInitScript), so it must not refer to anything
 * outside its own body. It records long tasks, times the KDF worker, and can time an input
 * event to the first frame that shows its effect.
 */
export function installProbes(): void {
  const state: ProbeState = { longTasks: [], kdfMs: [], lastSubmit: -1, pending: null, arm };
  window.__lockitBench = state;

  new PerformanceObserver((list) => {
    for (const task of list.getEntries()) state.longTasks.push({ start: task.startTime, end: task.startTime + task.duration });
  }).observe({ type: 'longtask', buffered: true });

  addEventListener('submit', (event) => (state.lastSubmit = event.timeStamp), { capture: true });

  // The app's own KDF path (derive-keys.ts starts a worker named lockit-kdf, posts one request,
  // reads one answer): timing it from outside measures exactly what a user waits for.
  const NativeWorker = window.Worker;
  window.Worker = class TimedWorker extends NativeWorker {
    private sentAt = -1;
    constructor(url: string | URL, options?: WorkerOptions) {
      super(url, options);
      if (options?.name !== 'lockit-kdf') return;
      // Registered before the app sets onmessage, so it runs first.
      this.addEventListener('message', () => state.kdfMs.push(performance.now() - this.sentAt), { once: true });
    }
    override postMessage(message: unknown, transfer?: Transferable[] | StructuredSerializeOptions): void {
      if (this.sentAt < 0) this.sentAt = performance.now();
      super.postMessage(message, transfer as StructuredSerializeOptions);
    }
  };

  function shown(check: ShownCheck): boolean {
    if (check.kind === 'text-changed') {
      const text = document.querySelector(check.selector)?.textContent ?? '';
      return text !== '' && text !== check.from && text !== check.pending;
    }
    const list = document.querySelector('[role="list"][aria-label="Saved passwords"]');
    const rows = list ? Array.from(list.querySelectorAll('[role="listitem"]')) : [];
    if (check.kind === 'absent') return !rows.some((row) => row.getAttribute('data-entry-id') === check.entryId);
    if (check.kind === 'present') return rows.some((row) => row.querySelector('[id^="entry-name-"]')?.textContent === check.text);
    if (check.kind === 'item') {
      return Array.from(document.querySelectorAll('section[aria-labelledby] h2[tabindex="-1"]')).some(
        (heading) => heading.textContent === check.name,
      );
    }
    if (check.kind === 'filter') {
      const heading = Array.from(document.querySelectorAll('section[aria-labelledby] h2')).find(
        (candidate) => candidate.textContent === check.heading,
      );
      const status = heading?.parentElement?.querySelector('[role="status"]')?.textContent ?? '';
      const count = status.replace(/\D/g, '');
      return (
        heading !== undefined &&
        count !== '' &&
        (count === '0' ? rows.length === 0 : rows[0]?.getAttribute('aria-setsize') === count)
      );
    }
    const input = document.querySelector<HTMLInputElement>('input[type="search"]');
    if (input?.value !== check.query) return false;
    if (check.count === 0) return rows.length === 0;
    return rows[0]?.getAttribute('aria-setsize') === String(check.count);
  }

  /**
   * The next `startEvent` starts the clock (its timeStamp: when the input happened). `dom`:
   * the first moment the DOM holds the change (a mutation, or the input event when the list
   * needs no change), i.e. the main thread's share. `frame`: each animation frame checks the
   * DOM it is about to paint; the first that shows the change stops the clock in the task
   * after its paint (as the app's own painted mark does). That counts the whole main-thread
   * part of that frame (style, layout, paint, commit to the compositor) but not raster and
   * display, which follow on other threads. Event Timing would count those, but only in 8 ms
   * steps from 16 ms up, and for the first frame after the event's handlers, which need not
   * be the one showing the change (a deferred render paints it later).
   */
  function arm(startEvent: 'keydown' | 'click', check: ShownCheck): void {
    state.pending = new Promise<ShownTimes>((resolve, reject) => {
      const onStart = (event: Event) => {
        const start = event.timeStamp;
        let dom = Number.NaN;
        const seeDom = () => {
          if (Number.isNaN(dom) && shown(check)) dom = performance.now() - start;
        };
        const observer = new MutationObserver(seeDom);
        observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
        addEventListener('input', seeDom, { capture: true, once: true });
        const stopWatching = () => {
          observer.disconnect();
          removeEventListener('input', seeDom, { capture: true });
        };
        const frame = (frameTime: number) => {
          if (shown(check)) {
            seeDom();
            stopWatching();
            // The frame's time is its vsync tick: the main thread was idle from the change
            // reaching the DOM until then, waiting for the frame boundary.
            const waited = Math.max(0, frameTime - (start + dom));
            setTimeout(() => {
              const painted = performance.now() - start;
              resolve({ dom, frame: painted, work: painted - waited });
            }, 0);
          } else if (performance.now() - start > 30_000) {
            stopWatching();
            reject(new Error(`not shown within 30 s: ${JSON.stringify(check)}`));
          } else requestAnimationFrame(frame);
        };
        requestAnimationFrame(frame);
      };
      addEventListener(startEvent, onStart, { capture: true, once: true });
    });
    // Read later by timeToFrame; this keeps a failure from also surfacing as a page error.
    state.pending.catch(() => {});
  }
}

/** Milliseconds from an input to the change in the DOM and to the first frame showing it. */
export interface ShownTimes {
  dom: number;
  frame: number;
  /**
   * `frame` without the wait for the frame boundary after the change reached the DOM: the
   * main thread's work for the input (handlers, render, then that frame's style, layout and
   * paint). At 60 Hz an input landing just after a frame waits up to 16.7 ms whatever the app
   * does; `work` under 16.7 ms means the change is painted in the first frame after it.
   */
  work: number;
}

/** Times the input `act` performs until the DOM, then a painted frame, shows `check`. */
export async function timeToFrame(
  page: Page,
  startEvent: 'keydown' | 'click',
  check: ShownCheck,
  act: () => Promise<void>,
): Promise<ShownTimes> {
  await page.evaluate(([event, shownCheck]) => window.__lockitBench.arm(event, shownCheck), [startEvent, check] as const);
  await act();
  return page.evaluate(() => window.__lockitBench.pending ?? Promise.reject(new Error('not armed')));
}

export interface VaultLoad {
  /** lockit:vault-load-start → lockit:vault-decrypted. */
  toDecrypted: number;
  /** lockit:vault-load-start → lockit:vault-painted. */
  toPainted: number;
  /** lockit:vault-load-start → lockit:vault-checked (the whole-vault integrity check done). */
  toChecked: number;
  /** The Unlock click (form submit) → lockit:vault-load-start; NaN after a sign-in. */
  submitToStart: number;
  /** The longest main-thread task overlapping [`since`, painted]. */
  longestTask: number;
  domNodes: number;
}

/**
 * Waits for the vault's painted mark, then reads the marks of that load. Long tasks count
 * from the Unlock click (`since: 'submit'`) or, after a sign-in, from the load start (the
 * sign-in's own submit is not the vault's work).
 */
export async function readVaultLoad(page: Page, since: 'submit' | 'load-start'): Promise<VaultLoad> {
  await page.waitForFunction(() => performance.getEntriesByName('lockit:vault-painted').length > 0, undefined, {
    polling: 50,
    timeout: 120_000,
  });
  // A build without the whole-vault check (an older one, measured for comparison) never marks it: NaN then.
  await page
    .waitForFunction(() => performance.getEntriesByName('lockit:vault-checked').length > 0, undefined, {
      polling: 50,
      timeout: 15_000,
    })
    .catch(() => undefined);
  // Long-task entries are delivered after the task; the virtual list settles its row heights.
  await page.waitForTimeout(500);
  return page.evaluate((fromSubmit) => {
    const at = (name: string) => performance.getEntriesByName(name).at(-1)?.startTime ?? Number.NaN;
    const start = at('lockit:vault-load-start');
    const painted = at('lockit:vault-painted');
    const probes = window.__lockitBench;
    const from = fromSubmit ? probes.lastSubmit : start;
    const during = probes.longTasks.filter((task) => task.end > from && task.start < painted);
    return {
      toDecrypted: at('lockit:vault-decrypted') - start,
      toPainted: painted - start,
      toChecked: at('lockit:vault-checked') - start,
      submitToStart: fromSubmit ? start - probes.lastSubmit : Number.NaN,
      longestTask: Math.max(0, ...during.map((task) => task.end - task.start)),
      domNodes: document.getElementsByTagName('*').length,
    };
  }, since === 'submit');
}

export const kdfRuns = (page: Page): Promise<number[]> => page.evaluate(() => window.__lockitBench.kdfMs);
