import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';
import type { Keyring, UnlockedVault } from './keyring';

const KeyringContext = createContext<Keyring | null>(null);

export function KeyringProvider({ keyring, children }: { keyring: Keyring; children: ReactNode }) {
  return <KeyringContext.Provider value={keyring}>{children}</KeyringContext.Provider>;
}

export function useKeyring(): Keyring {
  const keyring = useContext(KeyringContext);
  if (!keyring) throw new Error('useKeyring must be used inside <KeyringProvider>.');
  return keyring;
}

/**
 * The unlocked vault, re-rendering when it locks or changes. A page load starts locked, so
 * the prerendered HTML and the render that hydrates it have none.
 */
export function useUnlockedVault(): UnlockedVault | null {
  const keyring = useKeyring();
  return useSyncExternalStore(keyring.subscribe, () => keyring.vault, noVault);
}

const noVault = () => null;

/** True while the page load opens the vault kept for a reload (decision 0048). */
export function useKeyringRestoring(): boolean {
  const keyring = useKeyring();
  return useSyncExternalStore(keyring.subscribe, () => keyring.restoring, notRestoring);
}

const notRestoring = () => false;
