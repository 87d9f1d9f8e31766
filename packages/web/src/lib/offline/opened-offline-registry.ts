import type { OfflineCopy } from '@lockit/client-core';

/**
 * The offline copy each vault key was opened from (Unlock with the server unreachable), by the
 * key: the vault's screens read the copy instead of asking the server, and say it is offline.
 * A key unlocked online is never here; locking drops the key, and with it this entry. A module
 * of its own, importing nothing at run time, so the header (the first render) can ask it.
 */
const openedFrom = new WeakMap<CryptoKey, OfflineCopy>();

export function rememberOpenedOffline(vaultKey: CryptoKey, copy: OfflineCopy): void {
  openedFrom.set(vaultKey, copy);
}

/** The copy `vaultKey` was opened from, or undefined when it was unlocked with the server. */
export function offlineCopyOf(vaultKey: CryptoKey): OfflineCopy | undefined {
  return openedFrom.get(vaultKey);
}
