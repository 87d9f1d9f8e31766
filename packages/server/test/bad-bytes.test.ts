import { describe, expect, it } from 'vitest';
import { apiPaths, CLIENT_HEADER, CLIENT_HEADER_VALUE } from '@lockit/contract';
import { BODY_FORBIDDEN_CHARACTER, BODY_NOT_UTF8, BODY_TOO_DEEP } from '../src/http/json-body-parser';
import { MAX_BODY_NESTING } from '../src/http/json-nesting';
import { createBody, newAccount, signedInUser } from './helpers/accounts';
import { recordFigures } from './helpers/figures';
import { INVALID_UTF8 } from './helpers/hostile-values';
import { useTestApp } from './helpers/test-app';

const h = useTestApp();

const ENTRY_ID = '3f2b8c1e-7a4d-4f6b-9c2e-1a2b3c4d5e6f';

/** Every route that reads a JSON body, with the method and path it answers on. */
const BODY_ROUTES: Array<{ method: 'POST' | 'PUT'; url: string }> = [
  { method: 'POST', url: apiPaths.createUser },
  { method: 'POST', url: apiPaths.sendCode },
  { method: 'POST', url: apiPaths.verifyCode },
  { method: 'POST', url: apiPaths.prelogin },
  { method: 'POST', url: apiPaths.login },
  { method: 'POST', url: apiPaths.refreshToken },
  { method: 'POST', url: apiPaths.logout },
  { method: 'POST', url: apiPaths.verifySession },
  { method: 'PUT', url: apiPaths.updateUsername },
  { method: 'PUT', url: apiPaths.changePassword },
  { method: 'POST', url: apiPaths.addEntry },
  { method: 'PUT', url: apiPaths.updateEntry(ENTRY_ID) },
  { method: 'POST', url: apiPaths.restoreEntry(ENTRY_ID) },
  { method: 'POST', url: apiPaths.entryHistories },
  { method: 'POST', url: apiPaths.entryBatch },
  { method: 'POST', url: apiPaths.folders },
  { method: 'PUT', url: apiPaths.folder(ENTRY_ID) },
  { method: 'PUT', url: apiPaths.accountDocument('generator-history') },
];

/** Bodies that must never reach a route: each with the message it is refused with. */
const BAD_BODIES: Array<{ name: string; payload: Buffer; message: string }> = [
  { name: 'NUL in a value', payload: Buffer.from('{"name":"Ann\\u0000e","revision":1}'), message: BODY_FORBIDDEN_CHARACTER },
  { name: 'NUL in a key', payload: Buffer.from('{"na\\u0000me":"Anne"}'), message: BODY_FORBIDDEN_CHARACTER },
  { name: 'NUL deep inside', payload: Buffer.from('{"a":[{"b":["ok","\\u0000"]}]}'), message: BODY_FORBIDDEN_CHARACTER },
  { name: 'a lone high surrogate', payload: Buffer.from('{"name":"x\\ud800"}'), message: BODY_FORBIDDEN_CHARACTER },
  { name: 'a lone low surrogate', payload: Buffer.from('{"name":"\\udfffx"}'), message: BODY_FORBIDDEN_CHARACTER },
  {
    name: 'nested one level past the limit',
    payload: Buffer.from(`{"name":${'['.repeat(MAX_BODY_NESTING)}${']'.repeat(MAX_BODY_NESTING)}}`),
    message: BODY_TOO_DEEP,
  },
  { name: 'nested 100,000 deep', payload: Buffer.from(`${'['.repeat(100_000)}${']'.repeat(100_000)}`), message: BODY_TOO_DEEP },
  ...INVALID_UTF8.map((bytes) => ({
    name: `bytes ${bytes.toString('hex')}`,
    payload: Buffer.concat([Buffer.from('{"name":"A'), bytes, Buffer.from('"}')]),
    message: BODY_NOT_UTF8,
  })),
];

async function countUsers(): Promise<number> {
  const row = await h.db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('bad bytes in a JSON body', () => {
  it('a NUL in the full name at sign-up: 400 with a clear message, no account (was a 500 on PostgreSQL)', async () => {
    const account = await newAccount();
    const before = await countUsers();
    const response = await h.client().post(apiPaths.createUser, { ...createBody(account), fullname: 'Ann\u0000e' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: BODY_FORBIDDEN_CHARACTER });
    expect(await countUsers()).toBe(before);
  });

  it('invalid UTF-8 in the full name: 400, never stored as U+FFFD', async () => {
    const account = await newAccount();
    const text = JSON.stringify({ ...createBody(account), fullname: 'Zoe@' });
    const at = text.indexOf('Zoe@') + 3;
    const payload = Buffer.concat([Buffer.from(text.slice(0, at)), Buffer.from([0xc3, 0x28]), Buffer.from(text.slice(at + 1))]);
    const response = await h.app.inject({
      method: 'POST',
      url: apiPaths.createUser,
      headers: { 'content-type': 'application/json', [CLIENT_HEADER]: CLIENT_HEADER_VALUE },
      payload,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: BODY_NOT_UTF8 });
    const stored = await h.db.selectFrom('users').select('fullname').where('username', '=', account.username).execute();
    expect(stored).toEqual([]);
  });

  it('well-formed text, surrogate pairs and a BOM-free body included, is still accepted and stored exactly', async () => {
    const fullname = 'Zoë Ünal 😀 𝔘';
    const { account } = await signedInUser(h, { fullname });
    const stored = await h.db
      .selectFrom('users')
      .select('fullname')
      .where('username', '=', account.username)
      .executeTakeFirstOrThrow();
    expect(stored.fullname).toBe(fullname);
  });

  it('a body nesting exactly to the limit is parsed: the route itself answers it, not the depth check', async () => {
    const { client } = await signedInUser(h);
    const nested = `{"serviceName":${'['.repeat(MAX_BODY_NESTING - 1)}${']'.repeat(MAX_BODY_NESTING - 1)}}`;
    const response = await h.app.inject({
      method: 'POST',
      url: apiPaths.addEntry,
      headers: { 'content-type': 'application/json', [CLIENT_HEADER]: CLIENT_HEADER_VALUE },
      cookies: Object.fromEntries(client.jar),
      payload: nested,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).not.toBe(BODY_TOO_DEEP);
  });

  it('every route that reads a body refuses each bad body with a 400 and its message, signed in or not', async () => {
    const { client } = await signedInUser(h);
    const cookies = Object.fromEntries(client.jar);
    const answers = new Map<string, number>();
    for (const route of BODY_ROUTES) {
      for (const bad of BAD_BODIES) {
        const response = await h.app.inject({
          method: route.method,
          url: route.url,
          headers: { 'content-type': 'application/json', [CLIENT_HEADER]: CLIENT_HEADER_VALUE },
          cookies,
          payload: bad.payload,
        });
        const label = `${route.method} ${route.url}: ${bad.name}`;
        expect(response.statusCode, label).toBe(400);
        expect(response.json(), label).toEqual({ message: bad.message });
        answers.set(`${response.statusCode}`, (answers.get(`${response.statusCode}`) ?? 0) + 1);
      }
    }
    recordFigures('bad-bytes', { routes: BODY_ROUTES.length, bodies: BAD_BODIES.length, answers: Object.fromEntries(answers) });
    // The session was not touched by any of it.
    expect((await client.get(apiPaths.profile)).statusCode).toBe(200);
  });
});
