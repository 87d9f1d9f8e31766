import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { compareServedCode, PROBLEMS, sha256Base64, type PageView } from './served-code';

const ORIGIN = 'https://vault.example';
const hash = (text: string) => createHash('sha256').update(text).digest('base64');
const EXPECTED = { '/assets/index-a1.js': hash('app'), '/assets/index-b2.css': hash('style'), '/sw.js': hash('worker') };
const at = (path: string) => `${ORIGIN}${path}`;

/** The page as served unchanged: every file read back, twice, with the release's bytes. */
function honest(): { page: PageView; refetched: Map<string, string | null> } {
  const files = Object.entries(EXPECTED).map(([path, sha256]) => ({ url: at(path), sha256 }));
  return { page: { files, inline: [] }, refetched: new Map(files.map(({ url, sha256 }) => [url, sha256])) };
}

describe('compareServedCode', () => {
  it('passes the release’s own files, read back and fetched again with the same bytes', () => {
    const { page, refetched } = honest();
    expect(compareServedCode(EXPECTED, ORIGIN, page, refetched)).toEqual({ origin: ORIGIN, matched: 3, problems: [] });
  });

  it('names a file the page got with other bytes', () => {
    const { page, refetched } = honest();
    const files = page.files.map((file) => (file.url.includes('index-a1') ? { ...file, sha256: hash('app, changed') } : file));
    expect(compareServedCode(EXPECTED, ORIGIN, { ...page, files }, refetched).problems).toEqual([
      { what: at('/assets/index-a1.js'), problem: PROBLEMS.changed },
    ]);
  });

  it('names a file that differs only when fetched again (a server answering two requests differently)', () => {
    const { page, refetched } = honest();
    refetched.set(at('/sw.js'), hash('worker, changed'));
    expect(compareServedCode(EXPECTED, ORIGIN, page, refetched).problems).toEqual([
      { what: at('/sw.js'), problem: PROBLEMS.changedOnRefetch },
    ]);
  });

  it('names a file of no release, a script of another origin, and the release’s bytes at another path', () => {
    const { page, refetched } = honest();
    const extra = [
      { url: at('/assets/extra.js'), sha256: hash('extra') },
      { url: 'https://cdn.example/x.js', sha256: null },
      { url: at('/assets/renamed.js'), sha256: hash('app') },
    ];
    for (const { url, sha256 } of extra) refetched.set(url, sha256);
    const verdict = compareServedCode(EXPECTED, ORIGIN, { ...page, files: [...page.files, ...extra] }, refetched);
    expect(verdict.matched).toBe(3);
    expect(verdict.problems).toEqual([
      { what: at('/assets/extra.js'), problem: PROBLEMS.unlisted },
      { what: 'https://cdn.example/x.js', problem: PROBLEMS.otherOrigin },
      { what: at('/assets/renamed.js'), problem: PROBLEMS.unlisted },
    ]);
  });

  it('fails a file it could not read, either way, and one read twice with two results', () => {
    const { page, refetched } = honest();
    refetched.set(at('/sw.js'), null);
    const files = [
      ...page.files.map((file) => (file.url.endsWith('.css') ? { ...file, sha256: null } : file)),
      { url: at('/assets/index-a1.js'), sha256: hash('other') },
    ];
    expect(compareServedCode(EXPECTED, ORIGIN, { ...page, files }, refetched).problems).toEqual([
      { what: at('/assets/index-a1.js'), problem: PROBLEMS.unreadable },
      { what: at('/assets/index-b2.css'), problem: PROBLEMS.unreadable },
      { what: at('/sw.js'), problem: PROBLEMS.unreadable },
    ]);
  });

  it('names inline code, and a page that loaded no script at all', () => {
    const { page, refetched } = honest();
    expect(compareServedCode(EXPECTED, ORIGIN, { ...page, inline: ['inline script: steal()'] }, refetched).problems).toEqual([
      { what: 'inline script: steal()', problem: PROBLEMS.inline },
    ]);
    expect(compareServedCode(EXPECTED, ORIGIN, { files: [], inline: [] }, new Map()).problems).toEqual([
      { what: 'this page', problem: PROBLEMS.noScript },
    ]);
  });

  it('leaves out files of other installed extensions, which the server did not serve', () => {
    const { page, refetched } = honest();
    const extension = { url: 'chrome-extension://abcdefgh/inject.js', sha256: null };
    expect(compareServedCode(EXPECTED, ORIGIN, { ...page, files: [...page.files, extension] }, refetched)).toEqual({
      origin: ORIGIN,
      matched: 3,
      problems: [],
    });
    expect(compareServedCode(EXPECTED, ORIGIN, { files: [extension], inline: [] }, new Map()).problems).toEqual([
      { what: 'this page', problem: PROBLEMS.noScript },
    ]);
  });

  it('does not take a key of Object.prototype for a listed file', () => {
    const url = at('/constructor');
    const verdict = compareServedCode(
      EXPECTED,
      ORIGIN,
      { files: [{ url, sha256: hash('x') }], inline: [] },
      new Map([[url, hash('x')]]),
    );
    expect(verdict.problems).toEqual([{ what: url, problem: PROBLEMS.unlisted }]);
  });

  it('hashes as the build does (base64 SHA-256)', async () => {
    expect(await sha256Base64(new TextEncoder().encode('app').buffer)).toBe(hash('app'));
  });
});
