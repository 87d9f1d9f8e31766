import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createRequire } from 'node:module';

/** Mozilla's web-ext, run as a developer runs it (its command line), on the built Firefox folder. */
export const FIREFOX_DIR = resolve(import.meta.dirname, '../../dist/firefox');
/** Debian's Firefox ESR (scripts/ensure-firefox.sh installs it). */
export const FIREFOX_ESR = '/usr/bin/firefox-esr';

const WEB_EXT = join(dirname(createRequire(import.meta.url).resolve('web-ext')), 'bin/web-ext.js');

export interface LintMessage {
  code: string;
  message: string;
  file?: string;
}

export interface LintReport {
  summary: { errors: number; notices: number; warnings: number };
  errors: LintMessage[];
  warnings: LintMessage[];
  notices: LintMessage[];
}

/** web-ext asks the npm registry for a newer web-ext once a day unless told not to. */
const WEB_EXT_ENV = { ...process.env, NO_UPDATE_NOTIFIER: '1' };

/** `web-ext lint` (addons.mozilla.org's own linter) on the Firefox build, as JSON. */
export function lintFirefoxBuild(): Promise<LintReport> {
  return new Promise((resolveReport, reject) => {
    const child = spawn(
      process.execPath,
      [WEB_EXT, 'lint', '--source-dir', FIREFOX_DIR, '--output', 'json', '--no-config-discovery'],
      { env: WEB_EXT_ENV, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    // It exits non-zero when it found errors: the report still says which.
    child.on('close', () => {
      try {
        resolveReport(JSON.parse(out) as LintReport);
      } catch {
        reject(new Error(`web-ext lint printed no report: ${out.slice(-2000)} ${err.slice(-2000)}`));
      }
    });
  });
}

/**
 * Preferences that keep the test's Firefox off the network: every request but one to this
 * machine goes to a proxy address where nothing listens (Firefox never proxies localhost), so
 * its update, telemetry and remote-settings calls fail at once instead of leaving the machine.
 */
const OFFLINE_PREFS = [
  'network.proxy.type=1',
  'network.proxy.http=127.0.0.1',
  'network.proxy.http_port=9',
  'network.proxy.ssl=127.0.0.1',
  'network.proxy.ssl_port=9',
  'network.dns.disablePrefetch=true',
  'network.captive-portal-service.enabled=false',
  'network.connectivity-service.enabled=false',
];

export interface RunningFirefox {
  /** The Remote Debugging Protocol port web-ext installed the add-on through. */
  debuggerPort: number;
  stop(): Promise<void>;
}

/**
 * `web-ext run` in Firefox ESR, headless, with a fresh profile of our own (removed on stop).
 * Resolves once web-ext says the add-on is installed.
 */
export async function runInFirefox(timeoutMs = 60_000): Promise<RunningFirefox> {
  const profile = mkdtempSync(join(tmpdir(), 'lockit-firefox-'));
  const args = [WEB_EXT, 'run', '--source-dir', FIREFOX_DIR, '--target', 'firefox-desktop', '--firefox', FIREFOX_ESR];
  args.push('--firefox-profile', profile, '--keep-profile-changes', '--no-reload', '--no-input', '--verbose');
  for (const pref of OFFLINE_PREFS) args.push('--pref', pref);
  // Its own process group: stop() ends web-ext and the Firefox it started, and nothing else.
  const child = spawn(process.execPath, args, {
    env: { ...WEB_EXT_ENV, MOZ_HEADLESS: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const stop = async () => {
    if (child.exitCode === null && child.pid !== undefined) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // Already gone.
      }
      await exited;
    }
    rmSync(profile, { recursive: true, force: true });
  };
  try {
    const debuggerPort = await installed(child, timeoutMs);
    return { debuggerPort, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The debugger port, once web-ext's verbose log says the temporary add-on is installed. */
function installed(child: ChildProcess, timeoutMs: number): Promise<number> {
  return new Promise((resolvePort, reject) => {
    let log = '';
    let port: number | null = null;
    const timer = setTimeout(
      () => reject(new Error(`web-ext run did not install the add-on in time:\n${log.slice(-4000)}`)),
      timeoutMs,
    );
    const read = (chunk: Buffer) => {
      // Firefox's own chatter goes through this log too: only its tail is kept for an error.
      log = (log + chunk.toString()).slice(-64_000);
      port ??= Number(/Connected to the remote Firefox debugger on port (\d+)\r?\n/.exec(log)?.[1] ?? NaN) || null;
      if (port !== null && /Installed .* as a temporary add-on/.test(log)) {
        clearTimeout(timer);
        resolvePort(port);
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`web-ext run exited (${code}) before the add-on was installed:\n${log.slice(-4000)}`));
    });
  });
}
