import type { EntryElement } from '@lockit/client-core';
import type { SealedEntry } from '@lockit/client-core';
import type { EntryDraft, EntrySecrets, VaultEntry } from '@lockit/client-core';

/**
 * One slice of work for a vault crypto worker (crypto-worker.ts). The vault key travels as a
 * CryptoKey (structured clone), never as bytes.
 */
export type CryptoSliceRequest = { vaultKey: CryptoKey } & (
  | {
      kind: 'open';
      raw: readonly unknown[];
      /** Also open each open entry's secrets (password, notes, details): the export's whole vault. */
      withSecrets?: boolean;
      /** Also compute each entry's integrity element (decision 0053) under this HMAC key, non-extractable. */
      integrityKey?: CryptoKey;
    }
  | { kind: 'seal'; items: readonly { id: string; draft: EntryDraft }[] }
);

/**
 * A slice's answer, in its order (the pool's job protocol carries the order and failures).
 * `open`: entries (null: no usable id, left out) and, when asked, their secrets (null: damaged
 * or not open). `seal`: the sealed entries.
 */
export type CryptoSliceResponse =
  | {
      kind: 'open';
      entries: (VaultEntry | null)[];
      secrets?: (EntrySecrets | null)[];
      /** When asked (integrityKey): one per raw entry, null where malformed. */
      elements?: (EntryElement | null)[];
    }
  | { kind: 'seal'; sealed: SealedEntry[] };
