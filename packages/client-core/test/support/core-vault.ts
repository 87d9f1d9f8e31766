import { deriveVaultIntegrityKey, importVaultKey } from '@lockit/crypto';
import type { VerifiedAccount } from '@lockit/test-support';
import {
  accountRefOf,
  emptyDraft,
  EntryWrites,
  FolderWrites,
  loadVaultSnapshot,
  openEntry,
  VaultIntegrity,
  type AccountRef,
  type ApiClient,
  type EntryDraft,
  type OpenEntry,
} from '../../src';
import { coreDevice, type CoreDevice } from './core-against-server';

/** A client core with the vault open: its writes, its integrity queue, its own device memory. */
export interface CoreVault {
  device: CoreDevice;
  api: ApiClient;
  account: AccountRef;
  vaultKey: CryptoKey;
  integrityKey: CryptoKey;
  integrity: VaultIntegrity;
  entries: EntryWrites;
  folders: FolderWrites;
  /** Loads the vault as served and checks it (what a client does at every open). */
  check(): Promise<void>;
  /** The entry as served now, opened; throws when it is not there. */
  served(id: string): Promise<OpenEntry>;
  /** Everything this client was told about (the failure's warnings), for the test to read. */
  warnings: string[];
}

/**
 * A second client of an account the test toolkit made: its session cookies (no sign-in of its
 * own, so no Argon2id on the server), the account's keys, a fresh device memory. `baseUrl` is
 * the server, or the lying proxy in front of it.
 */
export async function coreVaultOf(verified: VerifiedAccount, baseUrl: string): Promise<CoreVault> {
  const device = coreDevice(baseUrl);
  for (const [name, value] of verified.client.cookies) device.cookies.cookies.set(name, value);
  const api = device.platform.api;
  const bytes = verified.account.vaultKeyBytes;
  const vaultKey = await importVaultKey(bytes.slice());
  const integrityKey = await deriveVaultIntegrityKey(bytes.slice());
  const account = await accountRefOf(verified.account.username);
  const warnings: string[] = [];
  const integrity = new VaultIntegrity(integrityKey, vaultKey, account, {
    api,
    memory: device.memory,
    load: (names) => loadVaultSnapshot(api, integrityKey, vaultKey, names),
    log: { info: (_context, detail) => warnings.push(detail), failure: (context) => warnings.push(`${context} failed`) },
  });
  const platform = { api, vaultKey, integrity };
  return {
    device,
    api,
    account,
    vaultKey,
    integrityKey,
    integrity,
    entries: new EntryWrites(platform),
    folders: new FolderWrites(platform),
    warnings,
    check: async () => integrity.check(await loadVaultSnapshot(api, integrityKey, vaultKey)),
    async served(id) {
      const list = await api.call('list-entries', {});
      const wire = list.data.find((entry) => entry.id === id);
      if (!wire) throw new Error(`entry ${id} is not served`);
      const opened = await openEntry(vaultKey, wire);
      if (opened?.status !== 'open') throw new Error(`entry ${id} does not open`);
      return opened;
    },
  };
}

/** A login draft with the fields a test names; the rest empty. */
export function loginDraft(parts: Partial<EntryDraft> & { serviceName: string }): EntryDraft {
  return { ...emptyDraft(), ...parts };
}
