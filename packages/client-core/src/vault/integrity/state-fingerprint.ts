import { parseVaultState } from '@lockit/contract';
import { fromBase64Url } from '@lockit/crypto';

/** What a person compares between two devices: the state's counter and a short code of its tag. */
export interface VaultStateFingerprint {
  counter: number;
  /** The tag's first 4 bytes as 8 upper-case hex digits in two groups, e.g. "7F3A 9C21". */
  code: string;
}

/**
 * A vault state a device verified, short enough to read out between two devices. The tag is an
 * HMAC under the vault's integrity key over the counter and the whole set, so a server cannot
 * make a device that saw an older or forked vault show the same counter with the same code.
 * 32 bits of tag: a server would have to find a forked set whose tag collides in them, with no
 * way to test a guess without the key. Null for a string that is not a vault state.
 */
export function vaultStateFingerprint(state: string): VaultStateFingerprint | null {
  const parts = parseVaultState(state);
  if (!parts) return null;
  const hex = Array.from(fromBase64Url(parts.tag).subarray(0, 4), (byte) => byte.toString(16).padStart(2, '0'))
    .join('')
    .toUpperCase();
  return { counter: parts.counter, code: `${hex.slice(0, 4)} ${hex.slice(4)}` };
}
