import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import {
  addEntryRequestSchema,
  ACCOUNT_DOCUMENT_BODY_LIMIT,
  addFolderRequestSchema,
  apiPaths,
  changePasswordRequestSchema,
  createUserRequestSchema,
  createInviteRequestSchema,
  ENTRY_BATCH_MAX_BYTES,
  ENTRY_BATCH_MAX_ENTRIES,
  entryBatchRequestSchema,
  ENTRY_HISTORIES_MAX_IDS,
  entryHistoriesRequestSchema,
  entryRevisionQuerySchema,
  listSessionsResponseSchema,
  loginRequestSchema,
  preloginRequestSchema,
  putAccountDocumentRequestSchema,
  restoreEntryRequestSchema,
  sendCodeRequestSchema,
  updateEntryRequestSchema,
  updateFolderRequestSchema,
  updateUsernameRequestSchema,
  verifyCodeRequestSchema,
} from '@lockit/contract';
import argon2 from 'argon2';
import { adminInviteRequestSchema, adminPaths, adminSignInRequestSchema } from '@lockit/contract';
import { buildApp } from '../src/app';
import { createBody, login, makeKeyMaterial, newAccount, signUpAndVerify, type TestAccount } from './helpers/accounts';
import { InjectClient } from './helpers/inject-client';
import { snapshotDatabase } from './helpers/db-snapshot';
import { encryptEntry } from './helpers/entries';
import { encryptFolderName, newFolder } from './helpers/folders';
import { recordFigures } from './helpers/figures';
import { hostileRequestArb, type HostileRequest, type RouteUnderAttack, type Target } from './helpers/hostile-requests';
import { startSmtpSink, type SmtpSink } from '@lockit/test-support';
import { testConfig, type TestHarness } from './helpers/test-app';
import { createTestDatabase, type TestDatabase } from './helpers/test-database';

/**
 * Every route gets 1,000 generated hostile requests: bodies, path parameters, cookies and
 * headers an attacker controls. Each one must be refused with the 4xx of the first check
 * that applies, as one readable `{ message }` with no trace of internals, and no table may
 * change. The app's clock stands still so that no legitimate write (a session's last-use
 * time) happens during the run either.
 */
const RUNS_PER_ROUTE = 1_000;
const KDF_FIELDS = ['kdf.algorithm', 'kdf.memoryKiB', 'kdf.iterations', 'kdf.parallelism'];
const ATTACKER_IP = '198.51.100.7';
const ADMIN_TOKEN = 'hostile-suite-admin-token-0123456789';
// Cheap Argon2 parameters: every generated admin sign-in costs one verify.
const ADMIN_TOKEN_HASH = await argon2.hash(ADMIN_TOKEN, { type: argon2.argon2id, memoryCost: 1024, timeCost: 1, parallelism: 1 });

let database: TestDatabase;
let sink: SmtpSink;
let app: FastifyInstance;
let victim: TestAccount;
let victimClient: InjectClient;
let target: Target;
let routes: RouteUnderAttack[];
const answers = new Map<string, Map<string, number>>();

beforeAll(async () => {
  database = await createTestDatabase();
  sink = await startSmtpSink();
  const frozenNow = Date.now();
  app = await buildApp(testConfig(database.config, sink.url, { config: { adminTokenHash: ADMIN_TOKEN_HASH } }), {
    db: database.db,
    now: () => frozenNow,
  });
  await app.ready();
  const h = { app, sink, client: (ip?: string) => new InjectClient(app, ip) } as TestHarness;

  victim = await newAccount();
  victimClient = h.client();
  await signUpAndVerify(h, victimClient, victim);
  expect((await login(victimClient, victim)).statusCode).toBe(200);
  const other = await newAccount();
  const otherClient = h.client();
  await signUpAndVerify(h, otherClient, other);
  await login(otherClient, other);

  const ownEntry = await encryptEntry(victim, {
    serviceName: 'Mail',
    username: 'me',
    password: 'secret',
    url: 'https://mail.example',
    notes: null,
  });
  expect((await victimClient.post(apiPaths.addEntry, ownEntry)).statusCode).toBe(201);
  expect(
    (
      await victimClient.post(
        apiPaths.addEntry,
        await encryptEntry(victim, { serviceName: 'Bank', username: 'me', password: 'pin' }),
      )
    ).statusCode,
  ).toBe(201);
  const othersEntry = await encryptEntry(other, { serviceName: 'Theirs', username: 'them', password: 'x' });
  expect((await otherClient.post(apiPaths.addEntry, othersEntry)).statusCode).toBe(201);
  // One import batch each: the victim's own (never undone by the run) and another account's.
  const ownBatchId = crypto.randomUUID();
  const ownBatchEntry = await encryptEntry(victim, { serviceName: 'Imported', username: 'me', password: 'from a file' });
  expect((await victimClient.post(apiPaths.entryBatch, { batchId: ownBatchId, entries: [ownBatchEntry] })).statusCode).toBe(201);
  const othersBatchId = crypto.randomUUID();
  const othersBatch = {
    batchId: othersBatchId,
    entries: [await encryptEntry(other, { serviceName: 'T', username: 't', password: 't' })],
  };
  expect((await otherClient.post(apiPaths.entryBatch, othersBatch)).statusCode).toBe(201);
  const ownFolder = await newFolder(victim, 'Work');
  expect((await victimClient.post(apiPaths.folders, ownFolder)).statusCode).toBe(201);
  const othersFolder = await newFolder(other, 'Theirs');
  expect((await otherClient.post(apiPaths.folders, othersFolder)).statusCode).toBe(201);

  target = {
    accessToken: victimClient.jar.get('lockit_access')!,
    refreshToken: victimClient.jar.get('lockit_refresh')!,
    ownEntryId: ownEntry.id,
    otherUsersEntryId: othersEntry.id,
    ownFolderId: ownFolder.id,
    otherUsersFolderId: othersFolder.id,
    ownBatchId,
    otherUsersBatchId: othersBatchId,
    adminToken: await adminSessionToken(h),
    unknownUserId: crypto.randomUUID(),
    ownSessionId: await currentSessionId(victimClient),
    otherUsersSessionId: await currentSessionId(otherClient),
  };
  const next = await makeKeyMaterial('a new master password', victim.vaultKeyBytes);
  const newEntry = await encryptEntry(victim, { serviceName: 'New', username: 'n', password: 'p', notes: 'note' });
  const updatedEntry = {
    ...(await encryptEntry(victim, { serviceName: 'Mail 2', username: 'me', password: 'secret 2' }, ownEntry.id)),
    revision: 1,
  };
  const batchEntries = [
    newEntry,
    await encryptEntry(victim, { serviceName: 'Second', username: 's', password: 'q', url: 'https://s.example' }),
  ];
  const newBatch = { batchId: crypto.randomUUID(), entries: batchEntries };
  const renamedFolder = { name: await encryptFolderName(victim, ownFolder.id, 'Office'), revision: 1 };
  routes = [
    {
      name: 'create',
      method: 'POST',
      path: () => apiPaths.createUser,
      hasIdParam: false,
      isPublic: true,
      body: { schema: createUserRequestSchema, valid: createBody(await newAccount()) },
      nestedFields: KDF_FIELDS,
    },
    {
      name: 'send-code',
      method: 'POST',
      path: () => apiPaths.sendCode,
      hasIdParam: false,
      isPublic: true,
      body: { schema: sendCodeRequestSchema, valid: { email: victim.email, username: victim.username } },
    },
    {
      name: 'verify-code',
      method: 'POST',
      path: () => apiPaths.verifyCode,
      hasIdParam: false,
      isPublic: true,
      body: { schema: verifyCodeRequestSchema, valid: { email: victim.email, username: victim.username, code: 'ABCDEF' } },
    },
    {
      name: 'prelogin',
      method: 'POST',
      path: () => apiPaths.prelogin,
      hasIdParam: false,
      isPublic: true,
      body: { schema: preloginRequestSchema, valid: { username: victim.username } },
    },
    {
      name: 'login',
      method: 'POST',
      path: () => apiPaths.login,
      hasIdParam: false,
      isPublic: true,
      body: { schema: loginRequestSchema, valid: { username: victim.username, password: victim.keys.authKey } },
    },
    { name: 'refresh-token', method: 'POST', path: () => apiPaths.refreshToken, hasIdParam: false, isPublic: true },
    { name: 'logout', method: 'POST', path: () => apiPaths.logout, hasIdParam: false, isPublic: true },
    { name: 'verify', method: 'POST', path: () => apiPaths.verifySession, hasIdParam: false, isPublic: false },
    { name: 'profile', method: 'GET', path: () => apiPaths.profile, hasIdParam: false, isPublic: false },
    { name: 'key-material', method: 'GET', path: () => apiPaths.keyMaterial, hasIdParam: false, isPublic: false },
    {
      name: 'update-username',
      method: 'PUT',
      path: () => apiPaths.updateUsername,
      hasIdParam: false,
      isPublic: false,
      body: { schema: updateUsernameRequestSchema, valid: { username: 'renamed_victim' } },
    },
    {
      name: 'change-password',
      method: 'PUT',
      path: () => apiPaths.changePassword,
      hasIdParam: false,
      isPublic: false,
      body: {
        schema: changePasswordRequestSchema,
        valid: {
          oldPassword: victim.keys.authKey,
          newPassword: next.keys.authKey,
          kdf: next.kdf,
          salt: next.salt,
          protectedKey: next.protectedKey,
        },
      },
      nestedFields: KDF_FIELDS,
    },
    { name: 'delete-account', method: 'DELETE', path: () => apiPaths.deleteAccount, hasIdParam: false, isPublic: false },
    { name: 'list-entries', method: 'GET', path: () => apiPaths.listEntries, hasIdParam: false, isPublic: false },
    {
      name: 'add-entry',
      method: 'POST',
      path: () => apiPaths.addEntry,
      hasIdParam: false,
      isPublic: false,
      body: { schema: addEntryRequestSchema, valid: newEntry },
    },
    {
      name: 'update-entry',
      method: 'PUT',
      path: (id) => `${apiPaths.updateEntry('')}${id}`,
      hasIdParam: true,
      isPublic: false,
      body: { schema: updateEntryRequestSchema, valid: updatedEntry },
    },
    {
      name: 'delete-entry',
      method: 'DELETE',
      path: (id) => `${apiPaths.deleteEntry('')}${id}`,
      hasIdParam: true,
      isPublic: false,
      query: entryRevisionQuerySchema,
    },
    {
      name: 'restore-entry',
      method: 'POST',
      path: (id) => `${apiPaths.restoreEntry('')}${id}`,
      hasIdParam: true,
      isPublic: false,
      body: { schema: restoreEntryRequestSchema, valid: { revision: 1 } },
    },
    {
      name: 'purge-entry',
      method: 'DELETE',
      path: (id) => `${apiPaths.purgeEntry('')}${id}`,
      hasIdParam: true,
      isPublic: false,
      query: entryRevisionQuerySchema,
    },
    {
      name: 'entry-history',
      method: 'GET',
      path: (id) => `${apiPaths.entryHistory('')}${id}`,
      hasIdParam: true,
      isPublic: false,
    },
    {
      name: 'entry-histories',
      method: 'POST',
      path: () => apiPaths.entryHistories,
      hasIdParam: false,
      isPublic: false,
      // The victim's entry and another account's: a body the schema accepts is answered 200.
      body: { schema: entryHistoriesRequestSchema, valid: { ids: [ownEntry.id, othersEntry.id] } },
      nestedFields: ['ids.0', 'ids.1'],
      // Whole arrays: a body that is one, an id repeated (in another case too), too many ids,
      // none, and the ids as an object, nested, or a string.
      bodyVariants: [
        [ownEntry.id],
        { ids: [ownEntry.id, ownEntry.id] },
        { ids: [othersEntry.id, ownEntry.id, othersEntry.id.toUpperCase()] },
        { ids: Array.from({ length: ENTRY_HISTORIES_MAX_IDS + 1 }, () => crypto.randomUUID()) },
        { ids: [] },
        { ids: { 0: ownEntry.id } },
        { ids: [[ownEntry.id]] },
        { ids: ownEntry.id },
      ],
    },
    {
      name: 'add-entry-batch',
      method: 'POST',
      path: () => apiPaths.entryBatch,
      hasIdParam: false,
      isPublic: false,
      body: { schema: entryBatchRequestSchema, valid: newBatch },
      nestedFields: ['entries.0', 'entries.1.id', 'entries.1.password', 'entries.1.overview', 'entries.0.serviceName'],
      bodyLimit: ENTRY_BATCH_MAX_BYTES,
      // Whole arrays: a body that is one, ids repeated or taken (the victim's, another
      // account's), too many entries, none, and the entries as an object.
      bodyVariants: [
        batchEntries,
        { ...newBatch, entries: [batchEntries[0], batchEntries[0]] },
        { ...newBatch, entries: [batchEntries[0], { ...batchEntries[1], id: batchEntries[0]!.id.toUpperCase() }] },
        { ...newBatch, entries: [{ ...batchEntries[0], id: ownEntry.id }] },
        { ...newBatch, entries: [batchEntries[1], { ...batchEntries[0], id: othersEntry.id }] },
        { ...newBatch, entries: Array.from({ length: ENTRY_BATCH_MAX_ENTRIES + 1 }, () => batchEntries[0]) },
        { ...newBatch, entries: [] },
        { ...newBatch, entries: { 0: batchEntries[0] } },
        { ...newBatch, entries: [[batchEntries[0]]] },
        { ...newBatch, batchId: [newBatch.batchId] },
      ],
    },
    {
      name: 'undo-entry-batch',
      method: 'DELETE',
      path: (id) => `${apiPaths.entryBatchUndo('')}${id}`,
      hasIdParam: true,
      resource: 'batch',
      isPublic: false,
    },
    { name: 'list-folders', method: 'GET', path: () => apiPaths.folders, hasIdParam: false, isPublic: false },
    {
      name: 'add-folder',
      method: 'POST',
      path: () => apiPaths.folders,
      hasIdParam: false,
      isPublic: false,
      body: { schema: addFolderRequestSchema, valid: await newFolder(victim, 'New') },
    },
    {
      name: 'update-folder',
      method: 'PUT',
      path: (id) => `${apiPaths.folder('')}${id}`,
      hasIdParam: true,
      resource: 'folder',
      isPublic: false,
      body: { schema: updateFolderRequestSchema, valid: renamedFolder },
    },
    {
      name: 'delete-folder',
      method: 'DELETE',
      path: (id) => `${apiPaths.folder('')}${id}`,
      hasIdParam: true,
      resource: 'folder',
      isPublic: false,
      query: entryRevisionQuerySchema,
    },
    {
      name: 'get-account-document',
      method: 'GET',
      path: (kind) => `${apiPaths.accountDocument('')}${kind}`,
      hasIdParam: true,
      resource: 'document',
      isPublic: false,
    },
    {
      name: 'put-account-document',
      method: 'PUT',
      path: (kind) => `${apiPaths.accountDocument('')}${kind}`,
      hasIdParam: true,
      resource: 'document',
      isPublic: false,
      bodyLimit: ACCOUNT_DOCUMENT_BODY_LIMIT,
      body: {
        schema: putAccountDocumentRequestSchema('generator-history'),
        valid: { ciphertext: await encryptFolderName(victim, 'document', '{}'), revision: 1 },
      },
    },
    {
      name: 'create-invite',
      method: 'POST',
      path: () => apiPaths.invites,
      hasIdParam: false,
      isPublic: false,
      body: { schema: createInviteRequestSchema, valid: { email: 'friend@example.test' } },
    },
    { name: 'list-invites', method: 'GET', path: () => apiPaths.invites, hasIdParam: false, isPublic: false },
    { name: 'list-sessions', method: 'GET', path: () => apiPaths.sessions, hasIdParam: false, isPublic: false },
    {
      name: 'end-session',
      method: 'DELETE',
      path: (id) => `${apiPaths.session('')}${id}`,
      hasIdParam: true,
      resource: 'session',
      isPublic: false,
    },
    { name: 'end-other-sessions', method: 'POST', path: () => apiPaths.endOtherSessions, hasIdParam: false, isPublic: false },
    {
      name: 'revoke-invite',
      method: 'DELETE',
      path: (id) => `${apiPaths.invite('')}${id}`,
      hasIdParam: true,
      resource: 'invite',
      isPublic: false,
    },
    {
      name: 'admin-sign-in',
      method: 'POST',
      path: () => adminPaths.signIn,
      hasIdParam: false,
      isPublic: true,
      session: 'admin',
      body: { schema: adminSignInRequestSchema, valid: { token: 'not-the-admin-token-0123456789' } },
    },
    {
      name: 'admin-sign-out',
      method: 'POST',
      path: () => adminPaths.signOut,
      hasIdParam: false,
      isPublic: true,
      session: 'admin',
    },
    {
      name: 'admin-session',
      method: 'GET',
      path: () => adminPaths.session,
      hasIdParam: false,
      isPublic: false,
      session: 'admin',
    },
    {
      name: 'admin-list-users',
      method: 'GET',
      path: () => adminPaths.users,
      hasIdParam: false,
      isPublic: false,
      session: 'admin',
    },
    {
      name: 'admin-diagnostics',
      method: 'GET',
      path: () => adminPaths.diagnostics,
      hasIdParam: false,
      isPublic: false,
      session: 'admin',
    },
    {
      name: 'admin-invite',
      method: 'POST',
      path: () => adminPaths.invites,
      hasIdParam: false,
      isPublic: false,
      session: 'admin',
      body: { schema: adminInviteRequestSchema, valid: { email: 'friend@example.test' } },
    },
    ...(['disable', 'enable', 'end-sessions'] as const).map((action): RouteUnderAttack => ({
      name: `admin-${action}-user`,
      method: 'POST',
      path: (id) => `${adminPaths.user('')}${id}/${action}`,
      hasIdParam: true,
      resource: 'user',
      isPublic: false,
      session: 'admin',
    })),
    {
      name: 'admin-delete-user',
      method: 'DELETE',
      path: (id) => `${adminPaths.user('')}${id}`,
      hasIdParam: true,
      resource: 'user',
      isPublic: false,
      session: 'admin',
    },
  ];
});

/** The id of the session a client's cookies belong to, as the session list marks it. */
async function currentSessionId(client: InjectClient): Promise<string> {
  const sessions = listSessionsResponseSchema.parse((await client.get(apiPaths.sessions)).json()).data;
  return sessions.find((session) => session.current)!.id;
}

/** Signs the operator in (the right token, once, before the run) and answers the admin cookie. */
async function adminSessionToken(h: TestHarness): Promise<string> {
  const operator = h.client();
  expect((await operator.post(adminPaths.signIn, { token: ADMIN_TOKEN })).statusCode).toBe(200);
  return operator.jar.get('lockit_admin')!;
}

afterAll(async () => {
  await app?.close();
  await sink?.close();
  await database?.drop();
});

/** Internals an answer must never show: stack frames, file paths, SQL, framework codes. */
const LEAK =
  /\bat .+:\d+|node_modules|\.ts\b|Error:|FST_|SQLITE|sqlite_|relation |syntax error|constraint|stack|\bselect\b|\binsert\b/i;

function checkAnswer(request: HostileRequest, response: LightMyRequestResponse): string {
  const label = `${request.method} ${request.url.slice(0, 120)} (${request.expected.reason})`;
  expect(response.statusCode, label).toBe(request.expected.status);
  expect(response.headers['content-type'], label).toMatch(/^application\/json/);
  const body = response.json() as Record<string, unknown>;
  expect(Object.keys(body), label).toEqual(['message']);
  const message = body.message as string;
  expect(typeof message).toBe('string');
  expect(message.length, label).toBeGreaterThan(0);
  expect(message.length, label).toBeLessThan(200);
  expect(message, label).not.toMatch(LEAK);
  expect(response.headers['x-content-type-options'], label).toBe('nosniff');
  expect(response.headers['cache-control'], label).toBe('no-store');
  expect(response.headers['retry-after'], label).toBeUndefined();
  const cookies = response.cookies as Array<{ value: string }>;
  expect(
    cookies.every((cookie) => cookie.value === ''),
    `${label}: sets a cookie`,
  ).toBe(true);
  return `${response.statusCode} ${message}`;
}

describe('hostile input on every route', () => {
  const names = [
    'create',
    'send-code',
    'verify-code',
    'prelogin',
    'login',
    'refresh-token',
    'logout',
    'verify',
    'profile',
    'key-material',
    'update-username',
    'change-password',
    'delete-account',
    'list-entries',
    'add-entry',
    'update-entry',
    'delete-entry',
    'restore-entry',
    'purge-entry',
    'entry-history',
    'entry-histories',
    'add-entry-batch',
    'undo-entry-batch',
    'list-folders',
    'add-folder',
    'update-folder',
    'delete-folder',
    'get-account-document',
    'put-account-document',
    'create-invite',
    'list-invites',
    'revoke-invite',
    'list-sessions',
    'end-session',
    'end-other-sessions',
    'admin-sign-in',
    'admin-sign-out',
    'admin-session',
    'admin-list-users',
    'admin-diagnostics',
    'admin-invite',
    'admin-disable-user',
    'admin-enable-user',
    'admin-end-sessions-user',
    'admin-delete-user',
  ];

  for (const name of names) {
    it(`${name}: ${RUNS_PER_ROUTE} requests, each refused with the right 4xx and a readable message; no table changes`, async () => {
      const route = routes.find((candidate) => candidate.name === name)!;
      const seen = new Map<string, number>();
      answers.set(name, seen);
      const before = await snapshotDatabase(database.db);
      await fc.assert(
        fc.asyncProperty(hostileRequestArb(route, target), async (request) => {
          const response = await app.inject({
            method: request.method,
            url: request.url,
            headers: request.headers,
            remoteAddress: ATTACKER_IP,
            ...(request.payload !== undefined ? { payload: request.payload } : {}),
          });
          const answer = checkAnswer(request, response);
          seen.set(answer, (seen.get(answer) ?? 0) + 1);
        }),
        { numRuns: RUNS_PER_ROUTE },
      );
      expect(await snapshotDatabase(database.db)).toEqual(before);
    });
  }

  it('left the victim signed in with every entry and folder intact', async () => {
    expect((await victimClient.get(apiPaths.profile)).json().data.username).toBe(victim.username);
    const entries = (await victimClient.get(apiPaths.listEntries)).json().data;
    expect(entries).toHaveLength(3);
    expect(
      entries.every((entry: { revision: number; deletedAt: string | null }) => entry.revision === 1 && entry.deletedAt === null),
    ).toBe(true);
    expect((await victimClient.get(apiPaths.folders)).json().data).toMatchObject([{ id: target.ownFolderId, revision: 1 }]);
  });

  it(`sent ${names.length * RUNS_PER_ROUTE} requests and met many different refusals`, () => {
    const total = [...answers.values()].reduce((sum, seen) => sum + [...seen.values()].reduce((a, b) => a + b, 0), 0);
    const distinct = new Set([...answers.values()].flatMap((seen) => [...seen.keys()]));
    const statuses = new Set([...distinct].map((answer) => answer.slice(0, 3)));
    const perRoute = Object.fromEntries(
      [...answers].map(([name, seen]) => [name, { cases: [...seen.values()].reduce((a, b) => a + b, 0), distinct: seen.size }]),
    );
    recordFigures('hostile-input', {
      total,
      distinct: distinct.size,
      statuses: [...statuses].sort(),
      perRoute,
      answers: [...distinct].sort(),
    });
    expect(answers.size).toBe(names.length);
    expect(total).toBeGreaterThanOrEqual(names.length * RUNS_PER_ROUTE);
    expect(distinct.size).toBeGreaterThanOrEqual(40);
    expect([...statuses].sort()).toEqual(['400', '401', '403', '404', '409', '413', '414', '415']);
  });
});
