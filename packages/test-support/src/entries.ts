import { apiPaths } from '@lockit/contract';
import { emptyOverview, type DetailsDocument, type OverviewDocument } from '@lockit/contract';
import {
  decryptField,
  encryptField,
  entryFieldSet,
  ENTRY_FIELD_NAMES,
  importVaultKey,
  newEntryId,
  openEntryFields,
  sealEntryFields,
  type EntryFieldName,
} from '@lockit/crypto';
import type { TestAccount } from './accounts';
import type { ApiClient } from './api-client';

/** An entry as the person typed it. */
export interface PlainEntry {
  serviceName: string;
  username: string;
  password: string;
  url?: string | null;
  notes?: string | null;
}

/** The vault key of an account whose key bytes the test holds. */
export function vaultKeyOf(account: Pick<TestAccount, 'vaultKeyBytes'>): Promise<CryptoKey> {
  return importVaultKey(account.vaultKeyBytes);
}

/** What the web app sends for an entry: every field encrypted under the vault key, bound to the id. */
export async function sealEntry(vaultKey: CryptoKey, plain: PlainEntry, id = newEntryId()) {
  const seal = (field: EntryFieldName, value: string) => encryptField(vaultKey, id, field, value);
  return {
    id,
    serviceName: await seal('serviceName', plain.serviceName),
    username: await seal('username', plain.username),
    password: await seal('password', plain.password),
    ...(plain.url !== undefined ? { url: plain.url === null ? null : await seal('url', plain.url) } : {}),
    ...(plain.notes !== undefined ? { notes: plain.notes === null ? null : await seal('notes', plain.notes) } : {}),
  };
}

export type SealedEntry = Awaited<ReturnType<typeof sealEntry>>;

const FIELDS: EntryFieldName[] = ['serviceName', 'username', 'password', 'url', 'notes'];

/** An entry as the server returned it, decrypted with the vault key (throws if it was tampered with). */
export async function openWireEntry(vaultKey: CryptoKey, wire: Record<string, unknown>): Promise<PlainEntry> {
  const id = (wire.id ?? wire._id) as string;
  const plain: Record<string, string | null> = {};
  for (const field of FIELDS) {
    const value = wire[field];
    plain[field] = typeof value === 'string' ? await decryptField(vaultKey, id, field, value) : null;
  }
  return plain as unknown as PlainEntry;
}

/** Adds entries through the API, `concurrency` requests at a time; returns the stored wire entries in order. */
export async function addEntries(
  client: ApiClient,
  vaultKey: CryptoKey,
  entries: ReadonlyArray<PlainEntry> | { count: number; make: (n: number) => PlainEntry },
  concurrency = 8,
): Promise<Array<Record<string, unknown>>> {
  const count = 'count' in entries ? entries.count : entries.length;
  const plainAt = (n: number) => ('count' in entries ? entries.make(n) : entries[n]!);
  return addSealed(client, count, (n) => sealEntry(vaultKey, plainAt(n)), concurrency);
}

/** Adds `count` already sealed entry bodies through the API, `concurrency` at a time; returns the stored entries in order. */
export async function addSealed(
  client: ApiClient,
  count: number,
  make: (n: number) => Promise<object>,
  concurrency = 8,
): Promise<Array<Record<string, unknown>>> {
  const stored: Array<Record<string, unknown>> = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const n = next++;
      const answer = await client.expect<{ data: Record<string, unknown> }>(201, 'POST', apiPaths.addEntry, await make(n));
      stored[n] = answer.data;
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return stored;
}

/** An entry of the item format as the web app holds it: the spec's fields and the two documents. */
export interface PlainItem {
  serviceName: string;
  username: string;
  password: string;
  notes?: string | null;
  overview: OverviewDocument;
  details?: DetailsDocument | null;
}

/** A login overview with defaults, for tests that care about a few of its parts. */
export function loginOverview(parts: Partial<OverviewDocument> = {}): OverviewDocument {
  return { ...emptyOverview('login'), ...parts };
}

/**
 * What the web app sends for an entry of the item format: every field sealed with the field
 * set in its associated data and the overview bound to the others (crypto's
 * sealEntryFields); `url` is the first web address, and a version 1 overview is written as
 * version 2, with the name and user name, as the app writes it.
 */
export async function sealItem(vaultKey: CryptoKey, item: PlainItem, id = newEntryId()) {
  const sealed = await sealEntryFields(vaultKey, id, {
    serviceName: item.serviceName,
    username: item.username,
    password: item.password,
    url: item.overview.urls[0] ?? null,
    notes: item.notes ?? null,
    overview: JSON.stringify(
      item.overview.v === 2 ? item.overview : { ...item.overview, v: 2, name: item.serviceName, username: item.username },
    ),
    details: item.details ? JSON.stringify(item.details) : null,
  });
  return { id, ...sealed };
}

/**
 * What the web app sent for an entry of the item format before bound overviews (2026-11-25):
 * a version 1 overview (no name or user name), every field sealed alone with the field set.
 * Such entries are still stored and still open; the vault bench measures them beside the new form.
 */
export async function sealUnboundItem(vaultKey: CryptoKey, item: PlainItem, id = newEntryId()) {
  const { name: _name, username: _username, ...listed } = item.overview;
  const texts: Record<EntryFieldName, string | null> = {
    serviceName: item.serviceName,
    username: item.username,
    password: item.password,
    url: item.overview.urls[0] ?? null,
    notes: item.notes ?? null,
    overview: JSON.stringify({ ...listed, v: 1 }),
    details: item.details ? JSON.stringify(item.details) : null,
  };
  const fieldSet = entryFieldSet(texts);
  const sealed = {} as Record<EntryFieldName, string | null>;
  for (const name of ENTRY_FIELD_NAMES) {
    const text = texts[name];
    sealed[name] = text === null ? null : await encryptField(vaultKey, id, name, text, fieldSet);
  }
  return { id, ...sealed };
}

/** Opens every field of an item-format entry from the wire (throws if any was tampered with). */
export async function openWireItem(vaultKey: CryptoKey, wire: Record<string, unknown>) {
  const id = (wire.id ?? wire._id) as string;
  const texts = Object.fromEntries(
    (['serviceName', 'username', 'password', 'url', 'notes', 'overview', 'details'] as const).map((name) => [
      name,
      typeof wire[name] === 'string' ? (wire[name] as string) : null,
    ]),
  );
  return openEntryFields(vaultKey, id, texts, ['serviceName', 'username', 'password', 'url', 'notes', 'overview', 'details']);
}
