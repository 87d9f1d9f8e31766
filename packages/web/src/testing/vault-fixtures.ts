import { screen, within } from '@testing-library/react';
import { addEntryRequestSchema, apiPaths, updateEntryRequestSchema, type EntryWire } from '@lockit/contract';
import { encryptField, generateVaultKeyBytes, importVaultKey, newEntryId, randomSalt } from '@lockit/crypto';
import { Keyring, type UnlockedVault } from '@/lib/keyring';
import { FLOOR_KDF } from './crypto-fixtures';
import { route, routePrefix, type FakeAnswer, type FakeRequest, type FakeRoute } from './fake-api';

export interface PlainEntry {
  serviceName: string;
  username: string;
  password: string;
  url?: string;
  notes?: string;
}

/**
 * A keyring unlocked with a fresh vault key, without running Argon2id (the list tests do not
 * unlock; the unlock tests use makeAccountKeys). The wrapped key is a placeholder that
 * nothing in those tests unwraps.
 */
export async function unlockedKeyring(username = 'alice'): Promise<{ keyring: Keyring; vault: UnlockedVault }> {
  const vault: UnlockedVault = {
    username,
    vaultKey: await importVaultKey(generateVaultKeyBytes()),
    kdf: FLOOR_KDF,
    salt: randomSalt(),
    protectedKey: 'v1.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA',
  };
  const keyring = new Keyring();
  keyring.unlock(vault);
  return { keyring, vault };
}

let clock = Date.parse('2025-01-01T00:00:00Z');
const nextTimestamp = () => new Date((clock += 1000)).toISOString();

/** An entry as the server stores and returns it: every field encrypted, bound to its id. */
export async function sealedEntry(
  vaultKey: CryptoKey,
  plain: PlainEntry,
  { id = newEntryId(), createdAt = nextTimestamp(), revision = 1 }: { id?: string; createdAt?: string; revision?: number } = {},
): Promise<EntryWire> {
  const seal = (field: 'serviceName' | 'username' | 'password' | 'url' | 'notes', text: string | undefined) =>
    text === undefined ? Promise.resolve(null) : encryptField(vaultKey, id, field, text);
  const [serviceName, username, password, url, notes] = await Promise.all([
    seal('serviceName', plain.serviceName),
    seal('username', plain.username),
    seal('password', plain.password),
    seal('url', plain.url),
    seal('notes', plain.notes),
  ]);
  return { id, serviceName: serviceName!, username: username!, password: password!, url, notes, revision, createdAt, updatedAt: createdAt };
}

export const sealedEntries = (vaultKey: CryptoKey, plains: PlainEntry[]) =>
  Promise.all(plains.map((plain) => sealedEntry(vaultKey, plain)));

/**
 * The entry endpoints answering like the server: a store in memory, the server's messages,
 * its checks that fields are ciphertexts (contract schemas), 404 for an unknown id and 409
 * for a stale revision. `overrides` replaces single routes (e.g. a failing add).
 */
export function fakeEntryRoutes(initial: EntryWire[], overrides: Record<string, FakeRoute> = {}) {
  const store = new Map(initial.map((entry) => [entry.id, entry]));
  const idFrom = (request: FakeRequest) => decodeURIComponent(request.path.split('/').pop() ?? '');
  const invalid: FakeAnswer = { status: 400, body: { message: 'Every field must be a Lockit ciphertext.' } };
  const notFound: FakeAnswer = { status: 404, body: { message: 'Password not found.' } };

  const routes: Record<string, FakeRoute> = {
    [route('GET', apiPaths.listEntries)]: () => ({ status: 200, body: { message: 'Success', data: [...store.values()] } }),
    [route('POST', apiPaths.addEntry)]: (request) => {
      const body = addEntryRequestSchema.safeParse(request.body);
      if (!body.success) return invalid;
      const now = nextTimestamp();
      const entry: EntryWire = { url: null, notes: null, ...body.data, revision: 1, createdAt: now, updatedAt: now } as EntryWire;
      store.set(entry.id, entry);
      return { status: 201, body: { message: 'Password saved', data: entry } };
    },
    [routePrefix('PUT', apiPaths.updateEntry(''))]: (request) => {
      const body = updateEntryRequestSchema.safeParse(request.body);
      if (!body.success) return invalid;
      const current = store.get(idFrom(request));
      if (!current) return notFound;
      if (body.data.revision !== undefined && body.data.revision !== current.revision) {
        return { status: 409, body: { message: 'This password was changed elsewhere. Reload to see it.' } };
      }
      const { serviceName, username, password } = body.data;
      const entry: EntryWire = {
        ...current,
        serviceName,
        username,
        password,
        url: body.data.url ?? null,
        notes: body.data.notes ?? null,
        revision: current.revision + 1,
        updatedAt: nextTimestamp(),
      };
      store.set(entry.id, entry);
      return { status: 200, body: { message: 'Password updated', data: entry } };
    },
    [routePrefix('DELETE', apiPaths.deleteEntry(''))]: (request) =>
      store.delete(idFrom(request)) ? { status: 200, body: { message: 'Password deleted' } } : notFound,
    ...overrides,
  };
  return { routes, store };
}

/** The names of the rows the vault list renders, top to bottom (each row is named by its service). */
export function listedNames(): string[] {
  const list = screen.queryByRole('list', { name: 'Saved passwords' });
  if (!list) return [];
  return within(list)
    .getAllByRole('listitem')
    .sort((a, b) => Number(a.dataset.index) - Number(b.dataset.index))
    .map((row) => document.getElementById(row.getAttribute('aria-labelledby') ?? '')?.textContent ?? '');
}
