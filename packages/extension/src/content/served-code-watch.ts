import { sha256Base64 } from '../shared/served-code';

/**
 * The served-code watcher (decision 0082): registered by the service worker for the connected
 * Lockit server's pages only, at document_start, so it sees every element the HTML parser or a
 * script inserts from the first byte on, before any of the page's own scripts runs. It notes
 * every script, module preload, stylesheet and code file the page loads (elements, and the
 * browser's resource timing for dynamic imports and workers), and inline code; it reads each
 * file back from the browser's cache (the bytes the page got, in the usual case), hashes it,
 * and reports the lot to the service worker, which judges it (src/shared/served-code.ts).
 *
 * It runs in the extension's isolated world: the page can neither change this code nor send
 * its report. The page can only add to what is checked; removing an element after it ran does
 * not remove it from the list.
 */
const CODE_PATH = /\.(?:m?js|css|wasm)$/i;
const SCRIPT_TYPES = new Set(['', 'module', 'text/javascript', 'application/javascript', 'text/ecmascript']);
/** Reports wait this long after the last new file, so a page's burst of loads is one report. */
const SETTLE_MS = 400;
const MAX_FILES = 400;
const MAX_INLINE = 40;

const files = new Map<string, Promise<string | null>>();
const inline: string[] = [];
let timer: ReturnType<typeof setTimeout> | undefined;

function noteFile(address: string): void {
  if (address === '' || files.size >= MAX_FILES) return;
  const url = new URL(address, location.href);
  url.hash = '';
  const key = url.href;
  if (files.has(key)) return;
  files.set(key, url.origin === location.origin ? readBack(key) : Promise.resolve(null));
  schedule();
}

function noteInline(description: string): void {
  if (inline.length >= MAX_INLINE) return;
  inline.push(description.slice(0, 200));
  schedule();
}

/**
 * The file as the page's browser holds it: `force-cache` answers from the HTTP cache without
 * asking the server again when the page's own load stored it (Lockit's assets are cached for a
 * year), so a server cannot tell this read from the page's.
 */
async function readBack(url: string): Promise<string | null> {
  try {
    const response = await fetch(url, { cache: 'force-cache', credentials: 'same-origin', redirect: 'error' });
    if (!response.ok) return null;
    return await sha256Base64(await response.arrayBuffer());
  } catch {
    return null;
  }
}

function noteElement(element: Element): void {
  if (element instanceof HTMLScriptElement) {
    if (element.hasAttribute('src')) noteFile(element.src);
    else if (SCRIPT_TYPES.has(element.type.trim().toLowerCase()))
      noteInline(`inline script: ${(element.textContent ?? '').trim().slice(0, 80) || '(empty)'}`);
  } else if (element instanceof HTMLLinkElement) {
    const rel = element.rel.toLowerCase().split(/\s+/);
    const loadsCode =
      rel.includes('modulepreload') ||
      rel.includes('stylesheet') ||
      (rel.includes('preload') && ['script', 'style', 'worker', 'sharedworker', 'serviceworker'].includes(element.as));
    if (loadsCode && element.href) noteFile(element.href);
  } else if (element instanceof HTMLStyleElement) {
    // Lockit's styles are files (its CSP allows no other); a style element could read typed
    // values out through attribute selectors.
    noteInline('an inline style element');
  } else if (element instanceof HTMLIFrameElement && element.hasAttribute('srcdoc')) {
    noteInline('a frame with inline HTML (srcdoc)');
  } else if (element instanceof HTMLAnchorElement && /^\s*javascript:/i.test(element.getAttribute('href') ?? '')) {
    noteInline(`javascript: link "${element.textContent?.trim().slice(0, 40) ?? ''}"`);
  }
  for (const attribute of element.attributes) {
    if (/^on/i.test(attribute.name)) noteInline(`${attribute.name} handler on <${element.localName}>`);
  }
}

function noteTree(node: Node): void {
  if (!(node instanceof Element)) return;
  noteElement(node);
  for (const child of node.querySelectorAll('script, link, style, a, iframe, [onload], [onerror], [onclick]')) noteElement(child);
}

function watch(): void {
  new MutationObserver((records) => {
    for (const record of records) {
      if (record.type === 'attributes' && record.target instanceof Element) noteElement(record.target);
      for (const node of record.addedNodes) noteTree(node);
    }
  }).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['src', 'href', 'rel'] });

  // Dynamic imports, workers and anything else fetched as code: the browser's own list, buffered
  // from the document's start. Fetches of data (the API) are not code and are left out.
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as PerformanceResourceTiming[]) {
      const path = URL.canParse(entry.name) ? new URL(entry.name).pathname : '';
      const dataFetch =
        entry.initiatorType === 'fetch' || entry.initiatorType === 'xmlhttprequest' || entry.initiatorType === 'beacon';
      if (entry.initiatorType === 'script' || (CODE_PATH.test(path) && (!dataFetch || path.endsWith('.wasm'))))
        noteFile(entry.name);
    }
  }).observe({ type: 'resource', buffered: true });
}

/** How often, and how long, the watcher looks for the service worker the page registers. */
const WORKER_POLL_MS = 2_000;
const WORKER_POLL_FOR_MS = 10 * 60_000;

/**
 * The service worker this page registered (it could answer the page's requests itself): every
 * version of it, from the first the page installs (Lockit's vault page registers it, at any
 * time after load) to each update found later. Returns whether the page has one.
 */
async function noteServiceWorker(): Promise<boolean> {
  try {
    const registration = await navigator.serviceWorker?.getRegistration();
    if (!registration) return false;
    for (const worker of [registration.installing, registration.waiting, registration.active]) {
      if (worker) noteFile(worker.scriptURL);
    }
    registration.addEventListener('updatefound', () => {
      if (registration.installing) noteFile(registration.installing.scriptURL);
    });
    return true;
  } catch {
    // No service worker API here (an opaque origin): nothing to note.
    return false;
  }
}

/** `navigator.serviceWorker.ready` is a page's only, so the watcher asks for the registration until there is one. */
async function watchServiceWorker(): Promise<void> {
  navigator.serviceWorker?.addEventListener('controllerchange', () => void noteServiceWorker());
  const until = Date.now() + WORKER_POLL_FOR_MS;
  while (!(await noteServiceWorker()) && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, WORKER_POLL_MS));
  }
}

function schedule(): void {
  clearTimeout(timer);
  timer = setTimeout(() => void report(), SETTLE_MS);
}

async function report(): Promise<void> {
  const read = await Promise.all([...files].map(async ([url, hash]) => ({ url, sha256: await hash })));
  try {
    await chrome.runtime.sendMessage({ type: 'served-code', files: read, inline: [...inline] });
  } catch {
    // The extension was reloaded under the page: this script's channel is gone.
  }
}

// Only HTML pages are the web app; a JSON answer or an image shown in a tab is none.
if (document.contentType === 'text/html') {
  watch();
  addEventListener('load', () => {
    void watchServiceWorker();
    schedule();
  });
}
