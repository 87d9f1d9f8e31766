import { accountRefOf } from '@lockit/client-core';
import { screen, within } from '@testing-library/react';
import {
  addEntryRequestSchema,
  addFolderRequestSchema,
  entryHistoriesRequestSchema,
  apiPaths,
  restoreEntryRequestSchema,
  TRASHED_AT_HEADER,
  updateEntryRequestSchema,
  updateFolderRequestSchema,
  type CardOverview,
  type CustomField,
  type DetailsDocument,
  type EntryType,
  type EntryVersionWire,
  type EntryWire,
  type FolderWire,
  type IdentityOverview,
  type OverviewDocument,
} from '@lockit/contract';
import {
  deriveVaultIntegrityKey,
  encryptField,
  entryFieldSet,
  ENTRY_FIELD_NAMES,
  generateVaultKeyBytes,
  importVaultKey,
  newEntryId,
  openEntryFields,
  randomSalt,
  sealEntryFields,
  type EntryFieldName,
  type EntryTexts,
} from '@lockit/crypto';
import { Keyring, type UnlockedVault } from '@/lib/keyring';
import { FLOOR_KDF } from './crypto-fixtures';
import { route, routePrefix, type FakeAnswer, type FakeRequest, type FakeRoute } from './fake-api';

/**
 * An entry's plaintext. The first five are the spec's fields; the rest go to the overview and
 * details documents of the item format (all optional: a plain login by default).
 */
export interface PlainEntry {
  serviceName: string;
  username: string;
  password: string;
  url?: string;
  notes?: string;
  type?: EntryType;
  /** Every web address; `url` (when given) is the first. */
  urls?: string[];
  urlRules?: OverviewDocument['urlRules'];
  tags?: string[];
  folderId?: string | null;
  favorite?: boolean;
  /** Overview fields; a hidden field's value goes in `hidden`. */
  fields?: CustomField[];
  hidden?: Record<string, string>;
  totp?: string;
  card?: CardOverview;
  cardSecret?: { number: string; code: string };
  identity?: IdentityOverview;
  identitySecret?: { ssn: string; passport: string; license: string };
}

/**
 * A keyring unlocked with a fresh vault key, without running Argon2id (the list tests do not
 * unlock; the unlock tests use makeAccountKeys). The wrapped key is a placeholder that
 * nothing in those tests unwraps.
 */
export async function unlockedKeyring(username = 'alice'): Promise<{ keyring: Keyring; vault: UnlockedVault }> {
  const bytes = generateVaultKeyBytes();
  const vault: UnlockedVault = {
    username,
    account: await accountRefOf(username),
    vaultKey: await importVaultKey(bytes),
    integrityKey: await deriveVaultIntegrityKey(bytes),
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

/** The overview and details documents of `plain`, as the web app writes them. */
export function documentsOf(plain: PlainEntry): { overview: OverviewDocument; details: DetailsDocument | null } {
  const urls = plain.urls ?? (plain.url === undefined ? [] : [plain.url]);
  const overview: OverviewDocument = {
    v: 2,
    name: plain.serviceName,
    username: plain.username,
    type: plain.type ?? 'login',
    urls,
    ...(plain.urlRules && { urlRules: plain.urlRules }),
    tags: plain.tags ?? [],
    folderId: plain.folderId ?? null,
    favorite: plain.favorite ?? false,
    fields: plain.fields ?? [],
    hasTotp: plain.totp !== undefined,
    card: plain.card ?? null,
    identity: plain.identity ?? null,
  };
  const hasDetails =
    plain.totp !== undefined ||
    plain.hidden !== undefined ||
    plain.cardSecret !== undefined ||
    plain.identitySecret !== undefined;
  const details: DetailsDocument | null = hasDetails
    ? {
        v: 1,
        totp: plain.totp ?? null,
        hidden: plain.hidden ?? {},
        card: plain.cardSecret ?? null,
        identity: plain.identitySecret ?? null,
      }
    : null;
  return { overview, details };
}

interface SealOptions {
  id?: string;
  createdAt?: string;
  revision?: number;
  deletedAt?: string | null;
  /**
   * 'item' (default): sealed with the field set and a version 2 overview bound to the other
   * fields; 'unbound': the item format as saved before bound overviews (a version 1
   * overview, each field sealed alone); 'legacy': the format before items (v1 associated data).
   */
  format?: 'item' | 'unbound' | 'legacy';
}

/** An entry as the server stores and returns it: every field encrypted, bound to its id. */
export async function sealedEntry(
  vaultKey: CryptoKey,
  plain: PlainEntry,
  { id = newEntryId(), createdAt = nextTimestamp(), revision = 1, deletedAt = null, format = 'item' }: SealOptions = {},
): Promise<EntryWire> {
  const times = { revision, createdAt, updatedAt: createdAt, deletedAt };
  if (format === 'legacy') {
    const seal = (field: 'serviceName' | 'username' | 'password' | 'url' | 'notes', text: string | undefined) =>
      text === undefined ? Promise.resolve(null) : encryptField(vaultKey, id, field, text);
    const [serviceName, username, password, url, notes] = await Promise.all([
      seal('serviceName', plain.serviceName),
      seal('username', plain.username),
      seal('password', plain.password),
      seal('url', plain.url),
      seal('notes', plain.notes),
    ]);
    return {
      id,
      serviceName: serviceName!,
      username: username!,
      password: password!,
      url,
      notes,
      overview: null,
      details: null,
      ...times,
    };
  }
  const { overview, details } = documentsOf(plain);
  const texts = {
    serviceName: plain.serviceName,
    username: plain.username,
    password: plain.password,
    url: plain.url ?? overview.urls[0] ?? null,
    notes: plain.notes ?? null,
    overview: JSON.stringify(overview),
    details: details === null ? null : JSON.stringify(details),
  };
  const sealed = format === 'unbound' ? await sealUnbound(vaultKey, id, texts) : await sealEntryFields(vaultKey, id, texts);
  return {
    id,
    serviceName: sealed.serviceName!,
    username: sealed.username!,
    password: sealed.password!,
    url: sealed.url,
    notes: sealed.notes,
    overview: sealed.overview,
    details: sealed.details,
    ...times,
  };
}

/** Each field sealed alone with the field set, the overview as version 1: how Lockit saved items before binding. */
async function sealUnbound(vaultKey: CryptoKey, id: string, texts: Record<EntryFieldName, string | null>) {
  const { name: _name, username: _username, ...listed } = JSON.parse(texts.overview!) as OverviewDocument;
  const plain = { ...texts, overview: JSON.stringify({ ...listed, v: 1 }) };
  const fieldSet = entryFieldSet(plain);
  const sealed = {} as Record<EntryFieldName, string | null>;
  for (const name of ENTRY_FIELD_NAMES) {
    const text = plain[name];
    sealed[name] = text === null ? null : await encryptField(vaultKey, id, name, text, fieldSet);
  }
  return sealed;
}

export const sealedEntries = (vaultKey: CryptoKey, plains: PlainEntry[], options: Omit<SealOptions, 'id'> = {}) =>
  Promise.all(plains.map((plain) => sealedEntry(vaultKey, plain, options)));

/**
 * Every field of a sealed entry (a wire entry or a request body) opened, in either format,
 * with the documents parsed: what a test checks a write against.
 */
export async function openSealed(vaultKey: CryptoKey, id: string, sealed: EntryTexts) {
  const texts = await openEntryFields(vaultKey, id, sealed, [
    'serviceName',
    'username',
    'password',
    'url',
    'notes',
    'overview',
    'details',
  ]);
  return {
    ...texts,
    overview: texts.overview === null ? null : (JSON.parse(texts.overview) as OverviewDocument),
    details: texts.details === null ? null : (JSON.parse(texts.details) as DetailsDocument),
  };
}

/** A folder as the server stores it: its name sealed as the web app seals it (bound to `folder:<id>`). */
export async function sealedFolder(
  vaultKey: CryptoKey,
  name: string,
  { id = newEntryId(), revision = 1 } = {},
): Promise<FolderWire> {
  const now = nextTimestamp();
  return {
    id,
    name: await encryptField(vaultKey, `folder:${id}`, 'serviceName', name),
    revision,
    createdAt: now,
    updatedAt: now,
  };
}

const ENTRY_TEXT_FIELDS = ['url', 'notes', 'overview', 'details'] as const;

/**
 * The entry and folder endpoints answering like the server: a store in memory with Trash and
 * history, the server's checks that fields are ciphertexts (contract schemas), 400 for a
 * write without a revision, 404 for an unknown id and 409 with the current version for a
 * stale revision. `overrides` replaces single routes (e.g. a failing add).
 */
export function fakeEntryRoutes(
  initial: EntryWire[],
  overrides: Record<string, FakeRoute> = {},
  initialFolders: FolderWire[] = [],
) {
  const store = new Map(initial.map((entry) => [entry.id, entry]));
  const history = new Map<string, EntryVersionWire[]>();
  const folders = new Map(initialFolders.map((folder) => [folder.id, folder]));
  const idFrom = (request: FakeRequest) => decodeURIComponent(request.path.split('/').pop() ?? '');
  const invalid: FakeAnswer = { status: 400, body: { message: 'Every field must be a Lockit ciphertext.' } };
  const noRevision: FakeAnswer = { status: 400, body: { message: 'revision is required: the revision this change is based on' } };
  const notFound: FakeAnswer = { status: 404, body: { message: 'Password not found.' } };
  const stale = (current: EntryWire): FakeAnswer => ({
    status: 409,
    body: { message: 'This password was changed elsewhere since you opened it.', data: current },
  });
  const revisionOf = (request: FakeRequest) => {
    const text = request.query.get('revision');
    return text === null || !/^\d+$/.test(text) ? null : Number(text);
  };
  /** Keeps `current` in history and stores `next` at the following revision. */
  const write = (current: EntryWire, next: Partial<EntryWire>): EntryWire => {
    const versions = history.get(current.id) ?? [];
    const now = nextTimestamp();
    const { id: _id, createdAt: _createdAt, updatedAt, deletedAt: _deletedAt, ...texts } = current;
    history.set(current.id, [{ ...texts, savedAt: updatedAt, replacedAt: now }, ...versions]);
    const entry: EntryWire = { ...current, ...next, revision: current.revision + 1, updatedAt: now };
    store.set(entry.id, entry);
    return entry;
  };

  const routes: Record<string, FakeRoute> = {
    [route('GET', apiPaths.listEntries)]: () => ({ status: 200, body: { message: 'Success', data: [...store.values()] } }),
    [route('POST', apiPaths.addEntry)]: (request) => {
      const body = addEntryRequestSchema.safeParse(request.body);
      if (!body.success) return invalid;
      const now = nextTimestamp();
      const entry: EntryWire = {
        url: null,
        notes: null,
        overview: null,
        details: null,
        ...body.data,
        revision: 1,
        createdAt: now,
        updatedAt: now,
        deletedAt: null,
      } as EntryWire;
      store.set(entry.id, entry);
      return { status: 201, body: { message: 'Password saved', data: entry } };
    },
    [routePrefix('PUT', apiPaths.updateEntry(''))]: (request) => {
      if (typeof (request.body as { revision?: unknown } | undefined)?.revision !== 'number') return noRevision;
      const body = updateEntryRequestSchema.safeParse(request.body);
      if (!body.success) return invalid;
      const current = store.get(idFrom(request));
      if (!current) return notFound;
      if (body.data.revision !== current.revision) return stale(current);
      const next: Partial<EntryWire> = {
        serviceName: body.data.serviceName,
        username: body.data.username,
        password: body.data.password,
      };
      // Left out: kept; null: cleared.
      for (const name of ENTRY_TEXT_FIELDS) if (body.data[name] !== undefined) next[name] = body.data[name];
      return { status: 200, body: { message: 'Password updated', data: write(current, next) } };
    },
    [routePrefix('DELETE', apiPaths.deleteEntry(''))]: (request) => {
      const revision = revisionOf(request);
      if (revision === null) return noRevision;
      const current = store.get(idFrom(request));
      if (!current) return notFound;
      if (revision !== current.revision) return stale(current);
      // The trash time the browser sealed, stored as sent (decision 0061); else the server's clock.
      const sealedAt = request.headers[TRASHED_AT_HEADER];
      const deletedAt = sealedAt === undefined ? nextTimestamp() : new Date(Number(sealedAt)).toISOString();
      return { status: 200, body: { message: 'Password deleted', data: write(current, { deletedAt }) } };
    },
    [routePrefix('POST', apiPaths.restoreEntry(''))]: (request) => {
      const body = restoreEntryRequestSchema.safeParse(request.body);
      if (!body.success) return noRevision;
      const current = store.get(idFrom(request));
      if (!current) return notFound;
      if (body.data.revision !== current.revision) return stale(current);
      return { status: 200, body: { message: 'Password restored', data: write(current, { deletedAt: null }) } };
    },
    [routePrefix('DELETE', apiPaths.purgeEntry(''))]: (request) => {
      const revision = revisionOf(request);
      if (revision === null) return noRevision;
      const current = store.get(idFrom(request));
      if (!current) return notFound;
      if (current.deletedAt === null) return { status: 409, body: { message: 'Move it to Trash first.' } };
      if (revision !== current.revision) return stale(current);
      store.delete(current.id);
      history.delete(current.id);
      return { status: 200, body: { message: 'Password deleted for good' } };
    },
    [routePrefix('GET', apiPaths.entryHistory(''))]: (request) => {
      const id = idFrom(request);
      if (!store.has(id)) return notFound;
      return { status: 200, body: { message: 'Success', data: history.get(id) ?? [] } };
    },
    [route('POST', apiPaths.entryHistories)]: (request) => {
      const body = entryHistoriesRequestSchema.safeParse(request.body);
      if (!body.success) return { status: 400, body: { message: 'ids must hold 1 to 500 entry ids.' } };
      const data = body.data.ids.filter((id) => store.has(id)).map((id) => ({ id, versions: history.get(id) ?? [] }));
      return { status: 200, body: { message: 'Success', data } };
    },
    [route('GET', apiPaths.folders)]: () => ({ status: 200, body: { message: 'Success', data: [...folders.values()] } }),
    [route('POST', apiPaths.folders)]: (request) => {
      const body = addFolderRequestSchema.safeParse(request.body);
      if (!body.success) return invalid;
      const now = nextTimestamp();
      const folder: FolderWire = { ...body.data, revision: 1, createdAt: now, updatedAt: now };
      folders.set(folder.id, folder);
      return { status: 201, body: { message: 'Folder saved', data: folder } };
    },
    [routePrefix('PUT', apiPaths.folder(''))]: (request) => {
      const body = updateFolderRequestSchema.safeParse(request.body);
      if (!body.success) return invalid;
      const current = folders.get(idFrom(request));
      if (!current) return { status: 404, body: { message: 'Folder not found.' } };
      if (body.data.revision !== current.revision) {
        return { status: 409, body: { message: 'This folder was changed elsewhere.', data: current } };
      }
      const folder: FolderWire = { ...current, name: body.data.name, revision: current.revision + 1, updatedAt: nextTimestamp() };
      folders.set(folder.id, folder);
      return { status: 200, body: { message: 'Folder updated', data: folder } };
    },
    [routePrefix('DELETE', apiPaths.folder(''))]: (request) => {
      const revision = revisionOf(request);
      if (revision === null) return noRevision;
      const current = folders.get(idFrom(request));
      if (!current) return { status: 404, body: { message: 'Folder not found.' } };
      if (revision !== current.revision)
        return { status: 409, body: { message: 'This folder was changed elsewhere.', data: current } };
      folders.delete(current.id);
      return { status: 200, body: { message: 'Folder deleted' } };
    },
    ...overrides,
  };
  return { routes, store, history, folders };
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
