import { decryptField, encryptField } from '@lockit/crypto';
import { z } from 'zod';
import type { AccountRef } from '../../device-memory/account-ref';
import type { DeviceMemory } from '../../device-memory/device-memory';

/**
 * What this browser last saw of the vault's set (ids, revisions and names of live entries,
 * folders and, since decision 0061, entries in Trash), sealed under
 * the vault key, in localStorage per account. Used only to NAME what a failed check finds
 * missing, older or unknown ("Missing: GitHub, Bank."); whether the check fails never depends
 * on it, so a lost or damaged manifest costs only the names.
 *
 * Security invariants:
 * - The names are secrets: the manifest is one AES-GCM field under the vault key, with the
 *   entry fields' associated data over a purpose of its own (`vault-manifest`), which no entry
 *   id (a bare UUID), folder (`folder:<id>`) or account document (`account-document:<kind>`)
 *   has, so nothing else can be passed off as a manifest, nor a manifest as anything else.
 * - Kept in this browser's DeviceMemory under the account's ref (a digest of the typed name).
 * - A manifest that does not open under this vault key (another account, a rotated key,
 *   tampering) is read as none.
 *
 * Writing it is O(n) in the vault (n ids and names, one encryption), which is why it runs on
 * the page, debounced, after a check or a write has settled: the server's path of a write
 * stays O(1), and a burst of writes costs one manifest.
 */
export interface ManifestMember {
  id: string;
  revision: number;
  name: string;
}

export interface VaultManifest {
  /** The counter of the state the manifest was made at. */
  counter: number;
  entries: ManifestMember[];
  folders: ManifestMember[];
  /** Entries in Trash; absent in a manifest made before Trash was in the state (then Trash is not named). */
  trashed?: ManifestMember[] | undefined;
}

const MANIFEST_PURPOSE = 'vault-manifest';
/** Far above any vault Lockit can open (the list's caps), so a damaged record cannot grow without end. */
const MAX_MEMBERS = 200_000;

const memberSchema = z.object({ id: z.string().max(100), revision: z.number().int().min(0), name: z.string().max(2_000) });
const manifestSchema = z.object({
  v: z.literal(1),
  counter: z.number().int().min(0),
  entries: z.array(memberSchema).max(MAX_MEMBERS),
  folders: z.array(memberSchema).max(MAX_MEMBERS),
  trashed: z.array(memberSchema).max(MAX_MEMBERS).optional(),
});

export async function saveVaultManifest(
  memory: DeviceMemory,
  vaultKey: CryptoKey,
  account: AccountRef,
  manifest: VaultManifest,
): Promise<void> {
  const sealed = await encryptField(vaultKey, MANIFEST_PURPOSE, 'notes', JSON.stringify({ v: 1, ...manifest }));
  // Storage full or unavailable: the store keeps it for this tab, and a later failure may be reported without names.
  await memory.saveSealedManifest(account, sealed);
}

/** The manifest this browser keeps for `account`, or null (none, or it does not open under `vaultKey`). */
export async function loadVaultManifest(
  memory: DeviceMemory,
  vaultKey: CryptoKey,
  account: AccountRef,
): Promise<VaultManifest | null> {
  const sealed = await memory.sealedManifest(account);
  if (sealed === null) return null;
  try {
    const parsed = manifestSchema.safeParse(JSON.parse(await decryptField(vaultKey, MANIFEST_PURPOSE, 'notes', sealed)));
    if (!parsed.success) return null;
    const { counter, entries, folders, trashed } = parsed.data;
    return trashed === undefined ? { counter, entries, folders } : { counter, entries, folders, trashed };
  } catch {
    return null;
  }
}
