import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { apiPaths } from '@lockit/contract';
import { buildApp } from '../src/app';
import { InjectClient } from './helpers/inject-client';
import { createBody, newAccount } from './helpers/accounts';
import { testConfig } from './helpers/test-app';
import { createTestDatabase, type TestDatabase } from './helpers/test-database';

let app: FastifyInstance;
let database: TestDatabase;
const lines: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  database = await createTestDatabase();
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  app = await buildApp({ ...testConfig(database.config, undefined), logLevel: 'info' }, { db: database.db, logStream });
});

afterAll(async () => {
  await app.close();
  await database.drop();
});

describe('without SMTP_URL', () => {
  it('writes the code to the server log at info level, marked as dev mail, and the code works', async () => {
    const account = await newAccount();
    const client = new InjectClient(app);
    await client.post(apiPaths.createUser, createBody(account));
    await client.post(apiPaths.sendCode, { email: account.email, username: account.username });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const entry = lines.find((line) => line.devMail === true && line.username === account.username);
    expect(entry).toBeDefined();
    expect(entry!.level).toBe(30);
    expect(entry!.to).toBe(account.email);
    expect(String(entry!.msg)).toContain('DEV MAIL');
    const code = String(entry!.code);
    expect(code).toMatch(/^[A-Z2-9]{6}$/);
    const verified = await client.post(apiPaths.verifyCode, { email: account.email, username: account.username, code });
    expect(verified.statusCode).toBe(200);
  });

  it('never logs the authKey, tokens or cookies', async () => {
    const account = await newAccount();
    const client = new InjectClient(app);
    await client.post(apiPaths.createUser, createBody(account));
    await client.post(apiPaths.login, { username: account.username, password: account.keys.authKey });
    const everything = JSON.stringify(lines);
    expect(everything).not.toContain(account.keys.authKey);
    expect(everything).not.toContain(account.protectedKey);
    expect(everything.toLowerCase()).not.toContain('cookie');
  });
});

describe('without SMTP_URL, on a terminal (LOG_FORMAT=pretty)', () => {
  it('draws the code in a box naming the user, and that code works', async () => {
    let text = '';
    const logStream = { write: (chunk: string) => void (text += chunk) };
    const config = { ...testConfig(database.config, undefined), logLevel: 'info' as const, logFormat: 'pretty' as const };
    const pretty = await buildApp(config, { db: database.db, logStream });
    try {
      const account = await newAccount();
      const client = new InjectClient(pretty);
      await client.post(apiPaths.createUser, createBody(account));
      await client.post(apiPaths.sendCode, { email: account.email, username: account.username });
      await new Promise((resolve) => setTimeout(resolve, 50));
      const boxed = new RegExp(`│  VERIFICATION CODE for ${account.username}: ([A-Z2-9]{6}) +│`).exec(text);
      expect(boxed).not.toBeNull();
      expect(text).not.toContain('"devMail"');
      const verified = await client.post(apiPaths.verifyCode, {
        email: account.email,
        username: account.username,
        code: boxed![1],
      });
      expect(verified.statusCode).toBe(200);
    } finally {
      await pretty.close();
    }
  });
});
