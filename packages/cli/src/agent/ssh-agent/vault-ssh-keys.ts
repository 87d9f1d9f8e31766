import { openSecrets, type OpenEntry } from '@lockit/client-core';
import ssh2, { type ParsedKey } from 'ssh2';

// ssh2 is CommonJS whose exports Node cannot name statically: taken from its default export.
const { utils } = ssh2;

/** One SSH key of the vault, ready to sign: held only for the request that opened it. */
export interface VaultSshKey {
  entryId: string;
  name: string;
  fingerprint: string;
  key: ParsedKey;
}

/**
 * The vault's live SSH key items, their private keys opened now (as `lockit get` opens a
 * password). An item whose secrets do not open or whose key does not parse is left out (the
 * web app shows it as damaged); nothing of the keys outlives the request that asked.
 */
export async function vaultSshKeys(vaultKey: CryptoKey, entries: readonly OpenEntry[]): Promise<VaultSshKey[]> {
  const keys: VaultSshKey[] = [];
  for (const entry of entries) {
    if (entry.type !== 'sshKey' || entry.deletedAt !== null || !entry.sshKey) continue;
    let privateKey;
    try {
      privateKey = (await openSecrets(vaultKey, entry)).sshKey?.privateKey;
    } catch {
      continue;
    }
    if (!privateKey) continue;
    const parsed = utils.parseKey(privateKey);
    const key = Array.isArray(parsed) ? parsed[0] : parsed;
    if (!key || key instanceof Error) continue;
    // The list shows the item's comment (what the person named the key in the vault).
    key.comment = entry.sshKey.comment || entry.serviceName;
    keys.push({ entryId: entry.id, name: entry.serviceName, fingerprint: entry.sshKey.fingerprint, key });
  }
  return keys;
}

/**
 * The hash a signature request asks for: Ed25519 has its own; an RSA key signs with SHA-256 or
 * SHA-512 as the request's flags say (rsa-sha2-256 / rsa-sha2-512, RFC 8332). An RSA request
 * with neither flag asks for SHA-1 ("ssh-rsa"), which OpenSSH itself no longer accepts by default:
 * it is refused (null).
 */
export function signatureHash(key: ParsedKey, requested: string | undefined): string | null | undefined {
  if (key.type === 'ssh-ed25519') return undefined;
  if (key.type === 'ssh-rsa') return requested === 'sha256' || requested === 'sha512' ? requested : null;
  return null;
}
