import {
  ACCOUNT_DOCUMENT_BODY_LIMIT,
  addEntryRequestSchema,
  addFolderRequestSchema,
  apiPaths,
  changePasswordRequestSchema,
  createInviteRequestSchema,
  createUserRequestSchema,
  ENTRY_BATCH_MAX_BYTES,
  ENTRY_BATCH_MAX_ENTRIES,
  entryBatchRequestSchema,
  ENTRY_HISTORIES_MAX_IDS,
  entryHistoriesRequestSchema,
  entryRevisionQuerySchema,
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
import { createBody, makeKeyMaterial, newAccount, type TestAccount } from './accounts';
import { encryptEntry } from './entries';
import { encryptFolderName, newFolder } from './folders';
import { ADMIN_ROUTES_UNDER_ATTACK } from './hostile-admin-routes';
import type { RouteUnderAttack } from './refusal-model';

/** Every route of the API and the admin API the hostile-input suite attacks, by name. */
export const HOSTILE_ROUTE_NAMES = [
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
] as const;

const KDF_FIELDS = ['kdf.algorithm', 'kdf.memoryKiB', 'kdf.iterations', 'kdf.parallelism'];

/** What the victim and another account hold before the run: the valid bodies refer to them. */
export interface HostileFixtures {
  victim: TestAccount;
  ownEntry: { id: string };
  othersEntry: { id: string };
  ownFolder: { id: string };
}

/**
 * Each route with a valid body (or query) for the victim: the generator (hostile-requests.ts)
 * breaks it one way at a time, and the refusal model says which 4xx each break must get. One
 * table with one entry per route, so it grows with the API (the admin API's routes are in
 * hostile-admin-routes.ts).
 */
export async function routesUnderAttack({
  victim,
  ownEntry,
  othersEntry,
  ownFolder,
}: HostileFixtures): Promise<RouteUnderAttack[]> {
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
  return [
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
    ...ADMIN_ROUTES_UNDER_ATTACK,
  ];
}
