import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { apiPaths } from '@lockit/contract';
import { ConfigError, loadConfig } from '../src/config/load-config';
import { useTestApp } from './helpers/test-app';

const serverDir = fileURLToPath(new URL('..', import.meta.url));
const onlyTwoPrelogins = { preloginPerIp: { points: 2, durationSeconds: 60 } };
const oneHop = useTestApp({ config: { trustProxy: 1 }, rateLimits: onlyTwoPrelogins });
const listed = useTestApp({ config: { trustProxy: ['10.0.0.0/8', '::1'] }, rateLimits: onlyTwoPrelogins });

async function trustProxyOf(value: string) {
  return (await loadConfig({ SERVER_SECRET: 'x'.repeat(32), TRUST_PROXY: value }, tmpdir())).trustProxy;
}

/** Prelogins from `peer` with this X-Forwarded-For until the per-address limit answers: the statuses. */
async function prelogins(harness: typeof oneHop, peer: string, forwardedFor: string, count = 3) {
  const statuses: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const response = await harness
      .client(peer)
      .post(apiPaths.prelogin, { username: 'someone' }, { headers: { 'x-forwarded-for': forwardedFor } });
    statuses.push(response.statusCode);
  }
  return statuses;
}

describe('TRUST_PROXY', () => {
  it('reads false, a hop count, or a list of addresses and CIDRs', async () => {
    expect(await trustProxyOf('')).toBe(false);
    expect(await trustProxyOf('false')).toBe(false);
    expect(await trustProxyOf('0')).toBe(false);
    expect(await trustProxyOf('1')).toBe(1);
    expect(await trustProxyOf(' 10.0.0.2, 10.0.0.0/8 ,fd00::/8, ::1,loopback')).toEqual([
      '10.0.0.2',
      '10.0.0.0/8',
      'fd00::/8',
      '::1',
      'loopback',
    ]);
  });

  it.each([
    ['true', 'TRUST_PROXY must say which proxies to trust, not true'],
    ['yes', 'give the number of proxies in front of the server (e.g. 1) or their addresses or CIDRs'],
    ['10.0.0.0/33', '"10.0.0.0/33" is neither'],
    ['10.0.0.2,', '"(empty)" is neither'],
    ['proxy.example.com', '"proxy.example.com" is neither'],
    ['101', 'TRUST_PROXY must be at most 100 hops'],
  ])('refuses %s with a message saying what to give', async (value, message) => {
    const failure = await trustProxyOf(value).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ConfigError);
    expect((failure as Error).message).toContain(message);
  });

  it('true stops the server at start with that message', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'lockit-trust-proxy-'));
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: serverDir,
      env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, TRUST_PROXY: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += String(chunk)));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
    expect(code).toBe(1);
    expect(stderr.trim()).toMatch(
      /^Invalid configuration: TRUST_PROXY must say which proxies to trust, not true .*give the number of proxies in front of the server \(e\.g\. 1\)/,
    );
  });

  it('with 1 hop, the address the proxy appended counts, and whatever the client wrote before it is ignored', async () => {
    // The client writes a new left-most address each time; the proxy appends the real one.
    const statuses: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const [status] = await prelogins(oneHop, '127.0.0.1', `198.51.100.${i}, 203.0.113.9`, 1);
      statuses.push(status!);
    }
    expect(statuses).toEqual([200, 200, 429]);
    // Another real client (another appended address) has its own limit.
    expect(await prelogins(oneHop, '127.0.0.1', '203.0.113.10', 1)).toEqual([200]);
  });

  it('with a list, a peer outside it has its X-Forwarded-For ignored entirely', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const [status] = await prelogins(listed, '192.0.2.5', `198.51.100.${i}`, 1);
      statuses.push(status!);
    }
    expect(statuses).toEqual([200, 200, 429]);
  });

  it('with a list, a listed proxy’s appended address counts, and untrusted hops before it are not believed', async () => {
    // Through the trusted 10.1.2.3: the client is the right-most entry not in the list.
    expect(await prelogins(listed, '10.1.2.3', '198.51.100.50, 203.0.113.20')).toEqual([200, 200, 429]);
    expect(await prelogins(listed, '10.1.2.3', '198.51.100.51, 203.0.113.21', 1)).toEqual([200]);
    // A new left-most entry gains nothing: the walk stops at the first hop outside the list.
    expect(await prelogins(listed, '10.1.2.3', '198.51.100.52, 203.0.113.20', 1)).toEqual([429]);
  });
});
