import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@lockit/contract';
import { ApiClient, createBody, freePort, newAccount, startServerProcess, type ServerProcess } from '@lockit/test-support';
import { MESSAGES } from '../../src/routes/messages';
import { recordFigures } from '../helpers/figures';
import { startSilentServer, type SilentServer } from './silent-server';

/**
 * SMTP refusing connections (a closed port) and hanging (a server that accepts and never
 * speaks), at sign-up, against the real server process: the API answers at once with the
 * spec's text, and a stop signal ends the process within the documented 10 s grace even
 * with a mail stuck in the send.
 */
const SHUTDOWN_GRACE_MS = 10_000;
const QUICK_ANSWER_MS = 1_000;

const figures: Record<string, number> = {};
const dirs: string[] = [];

async function serverWithSmtp(smtpUrl: string): Promise<ServerProcess> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lockit-smtp-down-'));
  dirs.push(dataDir);
  return startServerProcess({
    env: {
      DATA_DIR: dataDir,
      SMTP_URL: smtpUrl,
      SERVER_SECRET: 'smtp-down-test-secret-0123456789abcdef0123',
      WEB_DIST_DIR: path.join(dataDir, 'no-web'),
    },
  });
}

/** Create and send-code as the web app does; returns the send-code answer and its time. */
async function signUp(server: ServerProcess, label: string) {
  const account = await newAccount();
  const client = new ApiClient(server.url);
  await client.expect(201, 'POST', apiPaths.createUser, createBody(account));
  const start = performance.now();
  const answer = await client.post(apiPaths.sendCode, { email: account.email, username: account.username });
  figures[`${label}: send-code answer ms`] = Math.round(performance.now() - start);
  return { answer, account, client };
}

/** The delivery ticket's status (decision 0043) once it has left pending, or pending after `waitMs`. */
async function deliveryStatus(client: ApiClient, body: { data?: unknown }, waitMs = 2_000): Promise<string> {
  const ticket = (body.data as { delivery: string }).delivery;
  const deadline = Date.now() + waitMs;
  for (;;) {
    const answer = await client.get<{ data: { status: string } }>(apiPaths.mailDelivery(ticket));
    expect(answer.status).toBe(200);
    if (answer.body.data.status !== 'pending' || Date.now() > deadline) return answer.body.data.status;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  recordFigures('smtp down', figures);
});

describe('SMTP refusing connections', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await serverWithSmtp(`smtp://127.0.0.1:${await freePort()}`);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('sign-up still answers at once that a code is on its way; its ticket and the log say the mail failed', async () => {
    const { answer, client } = await signUp(server, 'refused');
    expect(answer.status).toBe(200);
    expect(answer.body.message).toBe(MESSAGES.codeOnItsWay);
    expect(figures['refused: send-code answer ms']).toBeLessThan(QUICK_ANSWER_MS);
    const deadline = Date.now() + 5_000;
    while (!server.output().includes('verification mail failed') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(server.output()).toContain('verification mail failed');
    expect(await deliveryStatus(client, answer.body)).toBe('failed');
  });
});

describe('SMTP that accepts and never answers', () => {
  let silent: SilentServer;
  let server: ServerProcess;
  beforeAll(async () => {
    silent = await startSilentServer();
    server = await serverWithSmtp(silent.url);
  });
  afterAll(async () => {
    await server?.stop('SIGKILL');
    await silent?.close();
  });

  it('sign-up answers at once, and SIGTERM with the mail stuck exits within the grace', async () => {
    const { answer, client } = await signUp(server, 'hanging');
    expect(answer.status).toBe(200);
    expect(answer.body.message).toBe(MESSAGES.codeOnItsWay);
    expect(figures['hanging: send-code answer ms']).toBeLessThan(QUICK_ANSWER_MS);
    // Asked once: the SIGTERM then comes while the send has just begun, the longest wait.
    expect(await deliveryStatus(client, answer.body, 0)).toBe('pending');
    const start = performance.now();
    const code = await server.stop('SIGTERM');
    figures['hanging: SIGTERM to exit ms'] = Math.round(performance.now() - start);
    expect(code).toBe(0);
    expect(figures['hanging: SIGTERM to exit ms']).toBeLessThan(SHUTDOWN_GRACE_MS);
  }, 20_000);
});
