import type { ApiClient } from '../../http/api-client';
import type { MemberChange } from '../integrity/member-change';
import type { VaultIntegrity } from '../integrity/vault-integrity';

/** What the vault's writes need of their platform: nothing global, all handed in. */
export interface VaultWritesPlatform {
  api: ApiClient;
  /** AES-256-GCM, non-extractable: every field is sealed under it. */
  vaultKey: CryptoKey;
  /**
   * The device's integrity queue (decisions 0053, 0061): every write carries the next
   * whole-vault state through it. Null where the device tracks no state (locked).
   */
  integrity: VaultIntegrity | null;
  /** The clock in ms: a move to Trash seals its time from it. Date.now where not given. */
  now?: () => number;
}

/** Sends a write with the vault state after it (none where the device tracks no state). */
export function writeWithState<T>(
  platform: Pick<VaultWritesPlatform, 'integrity'>,
  change: () => MemberChange,
  send: (state: string | undefined) => Promise<T>,
): Promise<T> {
  return platform.integrity ? platform.integrity.write(change, send) : send(undefined);
}
