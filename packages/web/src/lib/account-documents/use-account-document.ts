import { useCallback } from 'react';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { ACCOUNT_DOCUMENT_MAX_CIPHERTEXT, type AccountDocumentKind, type AccountDocumentWire } from '@lockit/contract';
import { getAccountDocument, putAccountDocument } from '@/api/account-documents';
import { ApiError, NetworkError, NoSessionError } from '@/lib/api-errors';
import { useUnlockedVault } from '@/lib/keyring-context';
import type { AccountRef } from '@lockit/client-core';
import { deviceMemory } from '@/lib/device-memory';
import { openSealedDocument, sealAccountDocument } from './seal-account-document';

export type AccountDocumentStatus = 'loading' | 'ready' | 'error' | 'damaged';
export type AccountDocumentUpdate = { ok: true } | { ok: false; message: string };

export interface AccountDocument<T> {
  /**
   * `loading` until the first answer; `error` when it could not be fetched or no vault is
   * unlocked in this tab; `damaged` when the saved document does not decrypt or does not
   * match the schema (it is never written over unasked: `update` refuses, `reset` is explicit).
   */
  status: AccountDocumentStatus;
  /** The saved value when `ready`, else `empty`. */
  value: T;
  /**
   * Applies `change` to the current value, seals it and saves it. On a conflict (saved
   * elsewhere meanwhile) it applies `change` again to the server's current value and retries.
   */
  update(change: (current: T) => T): Promise<AccountDocumentUpdate>;
  /** Replaces a damaged (or any) document with `empty`: the person's explicit choice only. */
  reset(): Promise<AccountDocumentUpdate>;
}

/** What the cache holds: never the ciphertext alone, never a value under another vault key. */
type Loaded<T> = { status: 'ready'; value: T; revision: number } | { status: 'damaged'; revision: number };

/** A conflict more often than this in a row means someone else keeps writing: give up and say so. */
const MAX_ATTEMPTS = 4;

export const DAMAGED_DOCUMENT_MESSAGE =
  'What was saved could not be decrypted or read, so Lockit did not change it. You can start over, which replaces it.';
const LOCKED_MESSAGE = 'Unlock your vault to save this.';

/** A vault key is not serialisable: each one gets a number, so a new key never sees another's cache. */
const keyIds = new WeakMap<CryptoKey, number>();
let nextKeyId = 1;
function keyIdOf(vaultKey: CryptoKey | null): number {
  if (vaultKey === null) return 0;
  let id = keyIds.get(vaultKey);
  if (id === undefined) {
    id = nextKeyId++;
    keyIds.set(vaultKey, id);
  }
  return id;
}

export const accountDocumentQueryKey = (kind: AccountDocumentKind, vaultKey: CryptoKey | null) =>
  ['account-document', kind, keyIdOf(vaultKey)] as const;

/**
 * Opens what the server sent. Security invariant: a document sealed at a lower revision than
 * this browser already opened or wrote for the account and kind (a server replaying an older
 * one, under any revision number) is `damaged`: never shown, never written over unasked.
 */
async function openWire<T>(
  vaultKey: CryptoKey,
  account: AccountRef,
  kind: AccountDocumentKind,
  wire: AccountDocumentWire | null,
  schema: z.ZodType<T>,
  empty: T,
): Promise<Loaded<T>> {
  const seen = await deviceMemory.documentRevision(account, kind);
  if (wire === null) return seen > 0 ? { status: 'damaged', revision: 0 } : { status: 'ready', value: empty, revision: 0 };
  const opened = await openSealedDocument(vaultKey, kind, wire.ciphertext, schema);
  if (!opened.ok || opened.revision < seen) return { status: 'damaged', revision: wire.revision };
  await deviceMemory.rememberDocumentRevision(account, kind, opened.revision);
  return { status: 'ready', value: opened.value, revision: wire.revision };
}

/** Writes to one document run one after another in this tab, so they do not conflict with each other. */
const queues = new Map<string, Promise<unknown>>();
function enqueue<R>(key: string, task: () => Promise<R>): Promise<R> {
  const run = (queues.get(key) ?? Promise.resolve()).then(task, task);
  const settled = run.catch(() => undefined);
  queues.set(key, settled);
  void settled.then(() => {
    if (queues.get(key) === settled) queues.delete(key);
  });
  return run;
}

function failureMessage(error: unknown): string {
  if (error instanceof NetworkError) return 'Not saved: you are offline or the server cannot be reached.';
  if (error instanceof NoSessionError || (error instanceof ApiError && error.status === 401))
    return 'Not saved: your session has ended. Sign in again, then try again.';
  if (error instanceof ApiError && error.status >= 500) return 'Not saved: the server had a problem. Try again in a moment.';
  if (error instanceof ApiError) return `Not saved: ${error.serverMessage ?? `the server refused it (status ${error.status}).`}`;
  return 'Not saved: the server sent an answer Lockit does not understand.';
}

interface Write<T> {
  queryClient: QueryClient;
  vaultKey: CryptoKey;
  account: AccountRef;
  kind: AccountDocumentKind;
  schema: z.ZodType<T>;
  empty: T;
  /** Whether a damaged document may be replaced (reset only). */
  overDamaged: boolean;
}

async function write<T>(
  { queryClient, vaultKey, account, kind, schema, empty, overDamaged }: Write<T>,
  change: (current: T) => T,
) {
  const queryKey = accountDocumentQueryKey(kind, vaultKey);
  const load = async () => openWire(vaultKey, account, kind, await getAccountDocument(kind), schema, empty);
  try {
    let base: Loaded<T> =
      queryClient.getQueryData<Loaded<T>>(queryKey) ?? (await queryClient.fetchQuery<Loaded<T>>({ queryKey, queryFn: load }));
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      if (base.status === 'damaged' && !overDamaged) return { ok: false as const, message: DAMAGED_DOCUMENT_MESSAGE };
      const parsed = schema.safeParse(change(base.status === 'ready' ? base.value : empty));
      if (!parsed.success) return { ok: false as const, message: 'Not saved: the new value is not valid.' };
      // Sealed above anything this browser saw, even when replacing a replayed older document.
      const sealedRevision = Math.max(base.revision, await deviceMemory.documentRevision(account, kind)) + 1;
      const ciphertext = await sealAccountDocument(vaultKey, kind, parsed.data, sealedRevision);
      if (ciphertext.length > ACCOUNT_DOCUMENT_MAX_CIPHERTEXT[kind]) {
        return { ok: false as const, message: 'Not saved: it is larger than Lockit keeps for this.' };
      }
      const outcome = await putAccountDocument(kind, ciphertext, base.revision);
      if (outcome.status === 'saved') {
        await deviceMemory.rememberDocumentRevision(account, kind, sealedRevision);
        const saved: Loaded<T> = { status: 'ready', value: parsed.data, revision: outcome.document.revision };
        queryClient.setQueryData<Loaded<T>>(queryKey, () => saved);
        return { ok: true as const };
      }
      const current = await openWire(vaultKey, account, kind, outcome.current, schema, empty);
      queryClient.setQueryData<Loaded<T>>(queryKey, () => current);
      base = current;
    }
    return { ok: false as const, message: 'Not saved: it keeps being changed on another device. Try again.' };
  } catch (error) {
    return { ok: false as const, message: failureMessage(error) };
  }
}

/**
 * One encrypted per-account document (decision 0030), read and written with this tab's vault
 * key. Security invariants: the server only ever receives the sealed text, bound to `kind`;
 * decrypted values live only in the query cache under the vault key's own id, dropped as soon
 * as nothing shows them (gcTime 0); a document that fails to open is `damaged`, never reset.
 */
export function useAccountDocument<T>(kind: AccountDocumentKind, schema: z.ZodType<T>, empty: T): AccountDocument<T> {
  const vault = useUnlockedVault();
  const vaultKey = vault?.vaultKey ?? null;
  const account = vault?.account ?? null;
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: accountDocumentQueryKey(kind, vaultKey),
    queryFn: async (): Promise<Loaded<T>> => openWire(vaultKey!, account!, kind, await getAccountDocument(kind), schema, empty),
    enabled: vaultKey !== null && account !== null,
    gcTime: 0,
  });

  const run = useCallback(
    (change: (current: T) => T, overDamaged: boolean): Promise<AccountDocumentUpdate> => {
      if (vaultKey === null || account === null) return Promise.resolve({ ok: false, message: LOCKED_MESSAGE });
      const job = { queryClient, vaultKey, account, kind, schema, empty, overDamaged };
      return enqueue(`${kind}:${keyIdOf(vaultKey)}`, () => write(job, change));
    },
    [queryClient, vaultKey, account, kind, schema, empty],
  );
  const update = useCallback((change: (current: T) => T) => run(change, false), [run]);
  const reset = useCallback(() => run(() => empty, true), [run, empty]);

  const data = query.data;
  const status: AccountDocumentStatus =
    vaultKey === null || (query.isError && data === undefined) ? 'error' : data === undefined ? 'loading' : data.status;
  return { status, value: data?.status === 'ready' ? data.value : empty, update, reset };
}
