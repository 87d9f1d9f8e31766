import type { VaultEntry } from './vault-entry';

/** One slice of the list for a decryption worker: the vault key travels as a CryptoKey (never its bytes). */
export interface OpenSliceRequest {
  slice: number;
  vaultKey: CryptoKey;
  raw: readonly unknown[];
}

/** The slice's entries in its order (null: an entry without a usable id, left out), or why it failed. */
export type OpenSliceResponse = { slice: number; ok: true; entries: (VaultEntry | null)[] } | { slice: number; ok: false };
