import { unwrapVaultKey, VaultKeyRejectedError, type AccountKeys } from '@lockit/crypto';
import { deriveKeys } from '@/lib/derive-keys';
import { CurrentPasswordIncorrectError, type AccountKeyMaterial } from './change-master-password';

/**
 * The keys of the master password typed again: the authKey that sensitive changes carry
 * (reauthRequestSchema, a key rotation's start), and the non-extractable wrapKey that wraps a
 * new vault key under `material`'s salt and params (a key rotation).
 *
 * Security invariants: the password goes only into the KDF, with the account's checked params
 * and salt; it is proved here first by unwrapping the vault key (whose bytes are wiped at
 * once), so a mistyped password sends nothing (CurrentPasswordIncorrectError).
 */
export async function deriveReauthKeys(material: AccountKeyMaterial, masterPassword: string): Promise<AccountKeys> {
  const keys = await deriveKeys(masterPassword, material.salt, material.kdf);
  try {
    const bytes = await unwrapVaultKey(
      material.protectedKey,
      keys.wrapKey,
      material.kdf,
      material.salt,
      material.keyGeneration,
      material.keyEpoch,
    );
    bytes.fill(0);
  } catch (error) {
    if (error instanceof VaultKeyRejectedError) throw new CurrentPasswordIncorrectError();
    throw error;
  }
  return keys;
}
