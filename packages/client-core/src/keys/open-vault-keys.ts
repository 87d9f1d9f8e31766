import { deriveVaultIntegrityKey, importVaultKey } from '@lockit/crypto';
import type { VaultAccount } from './client-keys';

/** An unlocked vault as a client without a reload seal holds it (the command line, tests). */
export interface OpenVault extends VaultAccount {
  /** AES-256-GCM, NON-extractable: entry fields are encrypted under it. */
  vaultKey: CryptoKey;
  /** HMAC-SHA256, NON-extractable: authenticates the vault's live set (whole-vault integrity). */
  integrityKey: CryptoKey;
}

/**
 * The plain KeyOpener: import the vault key and derive the integrity key, both
 * non-extractable. Invariant: `bytes` are wiped before this returns or throws.
 */
export async function openVaultKeys(bytes: Uint8Array, account: VaultAccount): Promise<OpenVault> {
  try {
    const vaultKey = await importVaultKey(bytes);
    const integrityKey = await deriveVaultIntegrityKey(bytes);
    return { ...account, vaultKey, integrityKey };
  } finally {
    bytes.fill(0);
  }
}
