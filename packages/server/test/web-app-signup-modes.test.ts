import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pageFileFor, PRERENDERED_PAGES, SIGNUP_MODES, type PrerenderedPath, type SignupMode } from '@lockit/contract/paths';
import { useTestApp } from './helpers/test-app';

/**
 * The web app's pages under each SIGNUP_MODE (decision 0044): the server sends the copies the
 * build made for its mode (each names its mode), and never open mode's, which offer sign-up.
 */
const html = (mode: SignupMode, what: string) =>
  `<!doctype html><meta name="lockit-signup-mode" content="${mode}"><p>${what}</p>`;

/** A dist folder as the build leaves it: every page and the shell, once per mode. */
function buildDist(modes: readonly SignupMode[]): string {
  const dist = mkdtempSync(path.join(tmpdir(), 'lockit-web-modes-'));
  mkdirSync(path.join(dist, 'pages'));
  for (const mode of SIGNUP_MODES) mkdirSync(path.join(dist, 'pages', mode));
  writeFileSync(path.join(dist, 'index.html'), html('open', 'shell'));
  for (const mode of modes) {
    writeFileSync(path.join(dist, pageFileFor(null, mode)), html(mode, 'shell'));
    for (const route of Object.keys(PRERENDERED_PAGES) as PrerenderedPath[]) {
      writeFileSync(path.join(dist, pageFileFor(route, mode)), html(mode, route));
    }
  }
  return dist;
}

const dist = buildDist(SIGNUP_MODES);

/** A build from before sign-up modes: open mode's names, no mode written in, no other copies. */
const PLAIN_SHELL = '<!doctype html><p>shell</p>';
const olderBuild = mkdtempSync(path.join(tmpdir(), 'lockit-web-old-'));
mkdirSync(path.join(olderBuild, 'pages'));
writeFileSync(path.join(olderBuild, 'index.html'), PLAIN_SHELL);
for (const file of Object.values(PRERENDERED_PAGES)) writeFileSync(path.join(olderBuild, file), '<p>Sign Up</p>');
afterAll(() => {
  rmSync(dist, { recursive: true, force: true });
  rmSync(olderBuild, { recursive: true, force: true });
});

const withMode = (mode: SignupMode, webDistDir = dist) => ({
  config: { webDistDir, signup: { mode, allowedEmailDomains: [], inviteLifetimeMs: 86_400_000 } },
});

for (const mode of ['invite', 'closed'] as const) {
  describe(`SIGNUP_MODE=${mode}`, () => {
    const h = useTestApp(withMode(mode));

    it('sends every landing page in its own copy', async () => {
      for (const route of Object.keys(PRERENDERED_PAGES)) {
        const response = await h.client().get(route);
        expect(response.statusCode, route).toBe(200);
        expect(response.body, route).toBe(html(mode, route));
        expect(response.headers['cache-control']).toBe('no-cache');
      }
    });

    it('sends its own shell for every other route', async () => {
      expect((await h.client().get('/vault')).body).toBe(html(mode, 'shell'));
      expect((await h.client().get('/profile?tab=x')).body).toBe(html(mode, 'shell'));
    });

    it('never sends open mode’s copies, not even by their file names', async () => {
      for (const url of [
        '/index.html',
        '/pages/splash.html',
        '/pages/signup.html',
        '/pages/signup.html.br',
        '/pages/open/x.html',
      ]) {
        const response = await h.client().get(url);
        expect(response.statusCode, url).toBe(404);
        expect(response.body).not.toContain('content="open"');
      }
    });
  });
}

describe('an invitation link in invite mode', () => {
  const h = useTestApp(withMode('invite'));

  it('gets the shell, which the app renders with the form, instead of the page made for no link', async () => {
    expect((await h.client().get('/signup?invite=abc')).body).toBe(html('invite', 'shell'));
    expect((await h.client().get('/signup?x=1')).body).toBe(html('invite', '/signup'));
  });
});

describe('open mode', () => {
  const h = useTestApp(withMode('open'));

  it('sends the usual files, invitation link or not', async () => {
    expect((await h.client().get('/')).body).toBe(html('open', '/'));
    expect((await h.client().get('/signup?invite=abc')).body).toBe(html('open', '/signup'));
    expect((await h.client().get('/index.html')).statusCode).toBe(200);
  });
});

describe('a build older than sign-up modes, under SIGNUP_MODE=closed', () => {
  const h = useTestApp(withMode('closed', olderBuild));

  it('sends the plain shell for every page: no prerendered page that offers sign-up', async () => {
    for (const route of Object.keys(PRERENDERED_PAGES)) {
      expect((await h.client().get(route)).body, route).toBe(PLAIN_SHELL);
    }
  });
});
