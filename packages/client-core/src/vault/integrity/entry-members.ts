import type { VaultEntryMember, VaultFolderMember } from '@lockit/crypto';

/** What a write sends of an entry: a sealed entry, or an add or update request. */
interface SentEntry {
  id: string;
  serviceName: string;
  username: string;
  password: string;
  url?: string | null | undefined;
  notes?: string | null | undefined;
  overview?: string | null | undefined;
  details?: string | null | undefined;
}

/**
 * The member a write makes, as the server will store it: the ciphertexts sent (an add or an
 * update names every field; one left out is stored as null) at the revision the server gives
 * it: 1 for a new entry or folder, the base revision + 1 for a change (entries-repository's
 * and folders-repository's compare-and-swap).
 */
export function writtenEntryMember(sent: SentEntry, revision: number): VaultEntryMember {
  const { id, serviceName, username, password, url, notes, overview, details } = sent;
  return {
    id,
    revision,
    serviceName,
    username,
    password,
    url: url ?? null,
    notes: notes ?? null,
    overview: overview ?? null,
    details: details ?? null,
  };
}

export const writtenFolderMember = (id: string, revision: number, name: string): VaultFolderMember => ({ id, revision, name });
