import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { apiPaths } from '@lockit/contract';
import { adminQuery, PG_URL, TEST_DB_KIND } from './helpers/test-database';

const serverDir = fileURLToPath(new URL('..', import.meta.url));

function start(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += String(chunk)));
  child.stderr.on('data', (chunk) => (stderr += String(chunk)));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const listening = new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const match = /"browserUrl":"http:\/\/localhost:(\d+)"/.exec(stdout);
      if (match) {
        clearInterval(timer);
        resolve(`http://127.0.0.1:${match[1]!}`);
      }
    }, 20);
    void exited.then(() => {
      clearInterval(timer);
      reject(new Error(`exited early: ${stderr}`));
    });
  });
  return { child, exited, listening, output: () => ({ stdout, stderr }) };
}

describe('main', () => {
  it('exits 1 with a one-line message naming the variable, and no stack trace', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'lockit-main-'));
    const run = start({ PORT: 'eighty', DATA_DIR: dataDir });
    run.listening.catch(() => undefined);
    expect(await run.exited).toBe(1);
    rmSync(dataDir, { recursive: true, force: true });
    const { stderr, stdout } = run.output();
    expect(stderr.trim()).toBe('Invalid configuration: PORT must be a number.');
    expect(stderr).not.toMatch(/\bat .*\.ts:\d+/);
    expect(stdout).toBe('');
  });

  it('migrates, serves, and on SIGTERM finishes the request in flight and exits 0', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'lockit-main-'));
    const schema = `lockit_main_${randomBytes(4).toString('hex')}`;
    const env: Record<string, string> = {
      PORT: '0',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      WEB_DIST_DIR: path.join(dataDir, 'no-web'),
    };
    if (TEST_DB_KIND === 'postgres') {
      await adminQuery(`CREATE SCHEMA ${schema}`);
      const url = new URL(PG_URL);
      url.searchParams.set('options', `-c search_path=${schema}`);
      env.DATABASE_URL = url.toString();
    }
    const run = start(env);
    try {
      await serveAndStop(run, dataDir, schema);
    } finally {
      if (run.child.exitCode === null) run.child.kill('SIGKILL');
      if (TEST_DB_KIND === 'postgres') await adminQuery(`DROP SCHEMA ${schema} CASCADE`);
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

async function serveAndStop(run: ReturnType<typeof start>, dataDir: string, schema: string) {
  const base = await run.listening;
  if (TEST_DB_KIND === 'postgres') {
    await adminQuery(`SELECT 1 FROM ${schema}.users`);
  } else {
    expect(existsSync(path.join(dataDir, 'lockit.sqlite'))).toBe(true);
  }
  const headers = { 'content-type': 'application/json', 'x-lockit-client': 'web' };
  const prelogin = await fetch(`${base}${apiPaths.prelogin}`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ username: 'someone' }),
  });
  expect(prelogin.status).toBe(200);

  // A sign-in spends Argon2 time: it is still running when the signal arrives.
  const inFlight = fetch(`${base}${apiPaths.login}`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ username: 'someone', password: 'A'.repeat(43) }),
  });
  await new Promise((resolve) => setTimeout(resolve, 30));
  run.child.kill('SIGTERM');
  const response = await inFlight;
  expect(response.status).toBe(401);
  expect(await run.exited).toBe(0);
  expect(run.output().stdout).toContain('SIGTERM received: closing');
  expect(run.output().stdout).toContain('serving the API only');
  expect(run.output().stdout).toContain('Lockit API is ready at http://localhost:');
  expect(run.output().stdout).not.toContain('Server listening at');
}
