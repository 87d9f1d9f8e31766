/**
 * The served-code check (decision 0082): does the web vault a Lockit server sends run the code
 * of the release this extension was built with? The build embeds the SHA-256 of every script,
 * stylesheet and WebAssembly file of the web app built from the same source
 * (tools/web-app-files.mjs); this module compares what a page loaded against that list.
 *
 * Security invariant: a page passes only when every file it loaded from the server is listed,
 * at its own path, with the listed bytes, read both as the page's browser holds it and by a
 * second request of the extension's own, and it ran no inline code. Anything else is a
 * problem named to the person; nothing the page says can turn a problem into a pass (its
 * content script only adds files to check, and a file it cannot read fails).
 */

/** Path (as the server serves it, e.g. `/assets/index-abc.js`) → base64 SHA-256 of its bytes. */
export type WebAppFiles = Readonly<Record<string, string>>;

/** What the watcher in the page saw (src/content/served-code-watch.ts). */
export interface PageView {
  /** Every script, module preload, stylesheet and worker the page loaded, with the base64 SHA-256 of the bytes its browser holds (null: unreadable). */
  files: readonly { url: string; sha256: string | null }[];
  /** Inline code the page carried: a script element without src, an on* handler attribute, a javascript: link, a style element, a srcdoc frame. */
  inline: readonly string[];
}

export interface ServedCodeProblem {
  /** The file's address, or the inline code's description. */
  what: string;
  problem: string;
}

export interface ServedCodeVerdict {
  /** The server's origin the page is on. */
  origin: string;
  /** Files compared and found as listed. */
  matched: number;
  problems: ServedCodeProblem[];
}

export const PROBLEMS = {
  otherOrigin: 'a script from another origin than the server: not part of Lockit',
  unlisted: 'not a file of this Lockit release',
  changed: 'differs from this Lockit release (the bytes the page got)',
  changedOnRefetch: 'differs from this Lockit release (a second request for it)',
  unreadable: 'could not be read back to check it',
  inline: 'inline code, which Lockit’s web app never has',
  noScript: 'the page loaded none of Lockit’s scripts: it is not Lockit’s web app',
} as const;

/**
 * The verdict on one page: `page` as its watcher saw it, `refetched` the hash of each
 * same-origin file fetched again by the extension (null: that request failed).
 */
export function compareServedCode(
  expected: WebAppFiles,
  origin: string,
  page: PageView,
  refetched: ReadonlyMap<string, string | null>,
): ServedCodeVerdict {
  const problems: ServedCodeProblem[] = [];
  let matched = 0;
  for (const { url, sha256 } of dedupe(page.files)) {
    // Another installed extension's own file, written into the page by that extension: not
    // the server's code, and nothing the server can change.
    if (/^(?:chrome|moz)-extension:/i.test(url)) continue;
    const parsed = URL.canParse(url) ? new URL(url) : null;
    if (parsed === null || parsed.origin !== origin) {
      problems.push({ what: url, problem: PROBLEMS.otherOrigin });
      continue;
    }
    const listed = Object.hasOwn(expected, parsed.pathname) ? expected[parsed.pathname] : undefined;
    const again = refetched.get(url);
    if (listed === undefined) problems.push({ what: url, problem: PROBLEMS.unlisted });
    else if (sha256 === null || again === null || again === undefined) problems.push({ what: url, problem: PROBLEMS.unreadable });
    else if (sha256 !== listed) problems.push({ what: url, problem: PROBLEMS.changed });
    else if (again !== listed) problems.push({ what: url, problem: PROBLEMS.changedOnRefetch });
    else matched += 1;
  }
  for (const code of page.inline) problems.push({ what: code, problem: PROBLEMS.inline });
  // An HTML page of Lockit's always loads its boot script: one that runs none could be a
  // look-alike form with no script at all.
  if (page.files.every(({ url }) => /^(?:chrome|moz)-extension:/i.test(url)))
    problems.push({ what: 'this page', problem: PROBLEMS.noScript });
  return { origin, matched, problems };
}

/** One entry per address; a file read twice with two different results counts as unreadable. */
function dedupe(files: PageView['files']): PageView['files'] {
  const byUrl = new Map<string, string | null>();
  for (const { url, sha256 } of files) {
    byUrl.set(url, byUrl.has(url) && byUrl.get(url) !== sha256 ? null : sha256);
  }
  return [...byUrl].map(([url, sha256]) => ({ url, sha256 }));
}

/** The base64 SHA-256 of some bytes, as the build writes it. */
export async function sha256Base64(bytes: ArrayBuffer): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  let binary = '';
  for (const byte of digest) binary += String.fromCharCode(byte);
  return btoa(binary);
}
