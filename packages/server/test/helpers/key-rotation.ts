import { expect } from 'vitest';
import { apiPaths, formatVaultState, type KeyRotationPart } from '@lockit/contract';
import { decryptField, encryptField, importVaultKey, newEntryId, wrapVaultKey, type EntryFieldName } from '@lockit/crypto';
import type { Db } from '../../src/db/schema';
import type { InjectClient } from './inject-client';
import type { TestAccount } from './accounts';
import type { TestHarness } from './test-app';

/** The document kind the seeded vaults hold. */
export const DOCUMENT_KIND = 'generator-settings';

const FIELDS = ['serviceName', 'username', 'password', 'url', 'notes', 'overview', 'details'] as const;
const COLUMNS = ['service_name', 'username', 'password', 'url', 'notes', 'overview', 'details'] as const;

// Folders and documents are sealed like entry fields, under a binding of their own: the
// server sees only v1 ciphertexts, and the test can open them again to re-encrypt them.
const folderBinding = (id: string) => `folder:${id}`;
const documentBinding = (kind: string) => `account-document:${kind}`;

export async function userIdOf(db: Db, username: string): Promise<string> {
  const row = await db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow();
  return row.id;
}

export async function vaultRevisionOf(db: Db, userId: string): Promise<number> {
  const row = await db.selectFrom('users').select('vault_revision').where('id', '=', userId).executeTakeFirstOrThrow();
  return Number(row.vault_revision);
}

/**
 * Fills a vault with every kind a rotation must carry: three entries (one edited twice, one
 * moved to Trash, so three history versions), a folder and an account document. Returns the
 * ids; the plaintexts are the test's own.
 */
export async function seedVault(account: TestAccount, client: InjectClient) {
  const key = await importVaultKey(account.vaultKeyBytes);
  const seal = (id: string, field: EntryFieldName, text: string) => encryptField(key, id, field, text);
  const entry = async (id: string, name: string, password: string) => ({
    id,
    serviceName: await seal(id, 'serviceName', name),
    username: await seal(id, 'username', `${name}-user`),
    password: await seal(id, 'password', password),
    notes: await seal(id, 'notes', `notes of ${name}`),
  });
  const ids = [newEntryId(), newEntryId(), newEntryId()] as const;
  for (const [index, id] of ids.entries()) {
    expect((await client.post(apiPaths.addEntry, await entry(id, `site${index}`, 'first'))).statusCode).toBe(201);
  }
  for (const revision of [1, 2]) {
    const edit = await client.put(apiPaths.updateEntry(ids[0]), { ...(await entry(ids[0], 'site0', `pw${revision}`)), revision });
    expect(edit.statusCode).toBe(200);
  }
  expect((await client.delete(`${apiPaths.deleteEntry(ids[2])}?revision=1`)).statusCode).toBe(200);
  const folderId = newEntryId();
  const folder = await client.post(apiPaths.folders, {
    id: folderId,
    name: await encryptField(key, folderBinding(folderId), 'notes', 'Work'),
  });
  expect(folder.statusCode).toBe(201);
  const document = await client.put(apiPaths.accountDocument(DOCUMENT_KIND), {
    ciphertext: await encryptField(key, documentBinding(DOCUMENT_KIND), 'notes', '{"length":24}'),
    revision: 0,
  });
  expect(document.statusCode).toBe(200);
  return { entryIds: [...ids], folderId };
}

/** Every row of the account that holds a ciphertext, as stored. */
export async function vaultRows(db: Db, userId: string) {
  return {
    entries: await db.selectFrom('entries').selectAll().where('user_id', '=', userId).orderBy('id').execute(),
    versions: await db
      .selectFrom('entry_history')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('entry_id')
      .orderBy('revision')
      .execute(),
    folders: await db.selectFrom('folders').selectAll().where('user_id', '=', userId).orderBy('id').execute(),
    documents: await db.selectFrom('account_documents').selectAll().where('user_id', '=', userId).orderBy('kind').execute(),
  };
}
export type VaultRows = Awaited<ReturnType<typeof vaultRows>>;

/** Every ciphertext string of those rows. */
export function ciphertextsOf(rows: VaultRows): string[] {
  const all: Array<string | null> = [
    ...rows.entries.flatMap((row) => COLUMNS.map((column) => row[column])),
    ...rows.versions.flatMap((row) => COLUMNS.map((column) => row[column])),
    ...rows.folders.map((row) => row.name),
    ...rows.documents.map((row) => row.ciphertext),
  ];
  return all.filter((value): value is string => value !== null);
}

type CiphertextRow = Record<(typeof COLUMNS)[number], string | null>;

async function reseal(oldKey: CryptoKey, newKey: CryptoKey, id: string, row: CiphertextRow) {
  const sealed: Record<string, string | null> = {};
  for (const [index, field] of FIELDS.entries()) {
    const value = row[COLUMNS[index]!];
    sealed[field] = value === null ? null : await encryptField(newKey, id, field, await decryptField(oldKey, id, field, value));
  }
  return sealed as { serviceName: string; username: string; password: string } & Record<
    'url' | 'notes' | 'overview' | 'details',
    string | null
  >;
}

/** The whole vault opened with the old key and sealed again under the new one, as the browser does it. */
export async function reencrypt(rows: VaultRows, oldKeyBytes: Uint8Array, newKeyBytes: Uint8Array) {
  const [oldKey, newKey] = [await importVaultKey(oldKeyBytes), await importVaultKey(newKeyBytes)];
  const move = async (binding: string, value: string) =>
    encryptField(newKey, binding, 'notes', await decryptField(oldKey, binding, 'notes', value));
  return {
    entries: await Promise.all(rows.entries.map(async (row) => ({ id: row.id, ...(await reseal(oldKey, newKey, row.id, row)) }))),
    versions: await Promise.all(
      rows.versions.map(async (row) => ({
        entryId: row.entry_id,
        revision: Number(row.revision),
        ...(await reseal(oldKey, newKey, row.entry_id, row)),
      })),
    ),
    folders: await Promise.all(
      rows.folders.map(async (row) => ({ id: row.id, name: await move(folderBinding(row.id), row.name) })),
    ),
    documents: await Promise.all(
      rows.documents.map(async (row) => ({
        kind: row.kind as 'generator-settings',
        document: await move(documentBinding(row.kind), row.ciphertext),
      })),
    ),
  } satisfies KeyRotationPart;
}

/** A well-formed vault state at `counter` (the server cannot check its sum or tag, only its shape and counter). */
export function vaultStateAt(counter: number, entries = 0, folders = 0): string {
  return formatVaultState({ counter, entries, folders, sum: 'A'.repeat(43), tag: 'B'.repeat(43) });
}

/** The new vault key wrapped as the browser wraps it: same password, same KDF and salt, the next generation and key epoch. */
export function wrapNewKey(account: TestAccount, newKeyBytes: Uint8Array, keyGeneration: number, keyEpoch = 1): Promise<string> {
  return wrapVaultKey(newKeyBytes, account.keys.wrapKey, account.kdf, account.salt, keyGeneration, keyEpoch);
}

/** POST start with the account's own auth key at the vault's current revision; returns the rotation id. */
export async function startRotation(h: Pick<TestHarness, 'db'>, account: TestAccount, client: InjectClient): Promise<string> {
  const vaultRevision = await vaultRevisionOf(h.db, await userIdOf(h.db, account.username));
  const started = await client.post(apiPaths.keyRotation, { authKey: account.keys.authKey, vaultRevision });
  expect(started.statusCode, started.body).toBe(201);
  return started.json().data.id as string;
}

/** The commit body for a new key at generation 1 and key epoch 1 (the test accounts' first rotation) and state counter 1. */
export async function commitBody(
  account: TestAccount,
  newKeyBytes: Uint8Array,
  keyGeneration = account.keyGeneration + 1,
  keyEpoch = 1,
) {
  return {
    protectedKey: await wrapNewKey(account, newKeyBytes, keyGeneration, keyEpoch),
    keyGeneration,
    keyEpoch,
    vaultState: vaultStateAt(1),
  };
}
