import { entrySchema, type EntryWire } from '@lockit/contract';
import { decryptField } from '@lockit/crypto';
import type { RevisionMemory } from './revision-memory';
import { damagedItem, type OpenItem, type VaultItem } from './vault-item';
import { yieldToMain } from './yield-to-main';

/** Entries per slice: about 1,500 decryptions, a few milliseconds of main-thread work. */
export const DECRYPT_BATCH_SIZE = 500;

/**
 * Decrypts what the list needs (service name, user name, web address) of every entry, in
 * slices with a yield to the event loop between them, so 10,000 entries never make one long
 * task. The order of `raw` is kept.
 *
 * Security invariant: an entry whose fields do not decrypt under this vault key, for this
 * entry id and this field (moved, tampered, plaintext, unknown version), becomes a
 * DamagedItem; nothing of it is shown. So does one at a lower revision than `revisions`
 * holds for it (a rollback). Entries without a usable id cannot be addressed, even to delete
 * them, and are left out.
 */
export async function openEntries(
  vaultKey: CryptoKey,
  raw: readonly unknown[],
  {
    signal,
    batchSize = DECRYPT_BATCH_SIZE,
    revisions,
  }: { signal?: AbortSignal; batchSize?: number; revisions?: RevisionMemory } = {},
): Promise<VaultItem[]> {
  const openSlice = (start: number) =>
    Promise.all(raw.slice(start, start + batchSize).map((entry) => openEntry(vaultKey, entry, revisions)));
  const items: VaultItem[] = [];
  // Two slices in flight: while this thread handles one slice's results, WebCrypto works on the next.
  let current = openSlice(0);
  for (let start = 0; start < raw.length; start += batchSize) {
    let next: typeof current | null = null;
    if (start + batchSize < raw.length) {
      await yieldToMain();
      signal?.throwIfAborted();
      next = openSlice(start + batchSize);
    }
    for (const item of await current) if (item) items.push(item);
    if (next) current = next;
  }
  signal?.throwIfAborted();
  return items;
}

/**
 * One entry from the wire (a list item, or the answer to an add or an update). With
 * `revisions`, an entry older than one this tab saw is refused, and one that opens is noted.
 */
export async function openEntry(vaultKey: CryptoKey, raw: unknown, revisions?: RevisionMemory): Promise<VaultItem | null> {
  const candidate = withId(raw);
  const parsed = entrySchema.safeParse(candidate);
  if (!parsed.success) {
    const id = idOf(candidate);
    return id === null ? null : damagedItem(id, createdAtOf(candidate));
  }
  const wire = parsed.data;
  if (revisions?.isRollback(wire.id, wire.revision)) return damagedItem(wire.id, wire.createdAt, 'rolled-back');
  try {
    const [serviceName, username, url] = await Promise.all([
      decryptField(vaultKey, wire.id, 'serviceName', wire.serviceName),
      decryptField(vaultKey, wire.id, 'username', wire.username),
      wire.url === null ? null : decryptField(vaultKey, wire.id, 'url', wire.url),
    ]);
    revisions?.note(wire.id, wire.revision);
    return toOpenItem(wire, serviceName, username, url);
  } catch {
    return damagedItem(wire.id, wire.createdAt);
  }
}

function toOpenItem(wire: EntryWire, serviceName: string, username: string, url: string | null): OpenItem {
  const sortKey = serviceName.toLowerCase();
  return {
    status: 'open',
    id: wire.id,
    serviceName,
    username,
    url,
    createdAt: wire.createdAt,
    revision: wire.revision,
    sealed: { password: wire.password, notes: wire.notes },
    sortKey,
    // A newline cannot be typed into the search box, so a match never spans two fields.
    searchText: `${sortKey}\n${username.toLowerCase()}\n${(url ?? '').toLowerCase()}`,
  };
}

/** The spec allows `_id` in place of `id`. */
function withId(raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null || 'id' in raw || !('_id' in raw)) return raw;
  return { ...raw, id: (raw as { _id: unknown })._id };
}

function idOf(raw: unknown): string | null {
  const id = typeof raw === 'object' && raw !== null ? (raw as { id?: unknown }).id : undefined;
  return typeof id === 'string' && id.length > 0 ? id : null;
}

function createdAtOf(raw: unknown): string {
  const createdAt = (raw as { createdAt?: unknown }).createdAt;
  return typeof createdAt === 'string' ? createdAt : '';
}
