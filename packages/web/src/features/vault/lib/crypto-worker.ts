/**
 * Vault crypto worker: opens slices of the vault's list (open-entries.ts openEntry: wire
 * schema, the bound overview or four fields, the overview document, the search text) and, for the export, each
 * entry's secrets (seal-entry.ts openSecrets); seals slices of new entries for an import
 * (seal-entry.ts sealEntry). Off the page's main thread, several workers side by side
 * (crypto-worker-pool.ts).
 *
 * Security invariant: the vault key arrives as a CryptoKey (structured clone; a
 * non-extractable key stays non-extractable) and, like the entries, is held only while its
 * slice is worked on: nothing is kept between messages, and what is opened or sealed goes
 * back only to the page. Rollback checks stay on the page, which holds the revision memory; so
 * does the whole-vault check: the workers only compute each entry's element beside opening it
 * (the integrity key arrives as a non-extractable CryptoKey, like the vault key).
 */
import { serveJobs, type WorkerScope } from '@lockit/client-core';
import { entryElementsOf } from '@lockit/client-core';
import type { CryptoSliceRequest, CryptoSliceResponse } from './crypto-worker-protocol';
import { openEntry } from '@lockit/client-core';
import { openSecrets, sealEntry } from '@lockit/client-core';

async function work(request: CryptoSliceRequest): Promise<CryptoSliceResponse> {
  const { vaultKey } = request;
  if (request.kind === 'seal') {
    const sealed = await Promise.all(request.items.map(({ id, draft }) => sealEntry(vaultKey, id, draft)));
    return { kind: 'seal', sealed };
  }
  const { integrityKey } = request;
  const [entries, elements] = await Promise.all([
    Promise.all(request.raw.map((entry) => openEntry(vaultKey, entry))),
    integrityKey ? entryElementsOf(integrityKey, request.raw) : undefined,
  ]);
  if (!request.withSecrets) return { kind: 'open', entries, ...(elements && { elements }) };
  const secrets = await Promise.all(
    entries.map((entry) => (entry?.status === 'open' ? openSecrets(vaultKey, entry).catch(() => null) : null)),
  );
  return { kind: 'open', entries, secrets };
}

serveJobs<CryptoSliceRequest, CryptoSliceResponse>(self as unknown as WorkerScope, async (request) => ({
  answer: await work(request),
}));
