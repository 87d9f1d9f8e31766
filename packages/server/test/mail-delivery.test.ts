import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { apiPaths, DELIVERY_TICKET_PATTERN } from '@lockit/contract';
import { freePort } from '@lockit/test-support';
import { buildApp } from '../src/app';
import { createBody, newAccount, type TestAccount } from './helpers/accounts';
import { InjectClient } from './helpers/inject-client';
import { testConfig, useTestApp } from './helpers/test-app';
import { createTestDatabase, type TestDatabase } from './helpers/test-database';
import { startSilentServer, type SilentServer } from './faults/silent-server';

/**
 * The delivery ticket of send-code (decision 0043): the browser learns whether the mail went
 * out, while the answer still comes before the send (decision 0007), and a request that sends
 * nothing gets a ticket that behaves like a real one.
 */
type Client = Pick<InjectClient, 'get' | 'post'>;

async function pendingAccount(client: Client): Promise<TestAccount> {
  const account = await newAccount();
  expect((await client.post(apiPaths.createUser, createBody(account))).statusCode).toBe(201);
  return account;
}

async function ticketOf(client: Client, body: { email: string; username: string }): Promise<string> {
  const answer = await client.post(apiPaths.sendCode, body);
  expect(answer.statusCode).toBe(200);
  const ticket = (answer.json() as { data: { delivery: string } }).data.delivery;
  expect(ticket).toMatch(DELIVERY_TICKET_PATTERN);
  return ticket;
}

/** Polls the ticket until it is no longer pending; returns what it settled on. */
async function settled(client: Client, ticket: string): Promise<string> {
  const deadline = Date.now() + 8_000;
  for (;;) {
    const answer = await client.get(apiPaths.mailDelivery(ticket));
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['cache-control']).toBe('no-store');
    const { status } = (answer.json() as { data: { status: string } }).data;
    if (status !== 'pending' || Date.now() > deadline) return status;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('with a working mail server', () => {
  const h = useTestApp();

  it('a real send settles as sent once the mail is out', async () => {
    const account = await pendingAccount(h.client());
    const ticket = await ticketOf(h.client(), account);
    expect(await settled(h.client(), ticket)).toBe('sent');
    expect(h.sink.mailsTo(account.email)).toHaveLength(1);
  });

  it('a request that sends nothing gets a ticket that settles the same way', async () => {
    const ticket = await ticketOf(h.client(), { email: 'nobody@example.test', username: 'nobody_at_all' });
    expect(await settled(h.client(), ticket)).toBe('sent');
  });

  it('an unknown or malformed ticket is a 404 with a message', async () => {
    for (const ticket of ['AAAAAAAAAAAAAAAAAAAAAA', 'short', '../../users/profile']) {
      const answer = await h.client().get(apiPaths.mailDelivery(ticket));
      expect(answer.statusCode).toBe(404);
      expect(answer.json()).toEqual({ message: 'No mail with that ticket here: it may have expired.' });
    }
  });
});

/** The app with SMTP_URL set to `smtpUrl`, on a database of its own, for one describe block. */
function useAppWithSmtp(smtpUrl: () => Promise<string>) {
  const holder = {} as { client: Client };
  let database: TestDatabase;
  let app: FastifyInstance;
  beforeAll(async () => {
    database = await createTestDatabase();
    app = await buildApp(testConfig(database.config, await smtpUrl()), { db: database.db });
    holder.client = new InjectClient(app);
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });
  return holder;
}

describe('with the mail server refusing connections', () => {
  const h = useAppWithSmtp(async () => `smtp://127.0.0.1:${await freePort()}`);

  it('a real send settles as failed, and so does a request that sends nothing', async () => {
    const account = await pendingAccount(h.client);
    const ticket = await ticketOf(h.client, account);
    expect(await settled(h.client, ticket)).toBe('failed');
    const decoy = await ticketOf(h.client, { email: 'nobody@example.test', username: 'nobody_at_all' });
    expect(await settled(h.client, decoy)).toBe('failed');
  });
});

describe('with a mail server that accepts and never answers', () => {
  let silent: SilentServer;
  const h = useAppWithSmtp(async () => {
    silent = await startSilentServer();
    return silent.url;
  });
  afterAll(async () => {
    await silent?.close();
  });

  it('the ticket stays pending while the send waits, then says failed once the greeting times out', async () => {
    const account = await pendingAccount(h.client);
    const ticket = await ticketOf(h.client, account);
    const answer = await h.client.get(apiPaths.mailDelivery(ticket));
    expect((answer.json() as { data: { status: string } }).data.status).toBe('pending');
    expect(await settled(h.client, ticket)).toBe('failed');
  });
});
