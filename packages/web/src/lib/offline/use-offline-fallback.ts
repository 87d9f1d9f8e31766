import { OfflineCopyDamagedError, readOfflineCopy, readPasskeyUnlocks } from '@lockit/client-core';
import { useEffect, useState } from 'react';
import { deviceMemory } from '../device-memory';
import { offlineCopies } from './offline-copies';

/** How long the session check may take before a device with a copy offers the offline Unlock. */
export const SERVER_ANSWER_WAIT_MS = 2_000;

/** What the offline Unlock shows before the copy is opened: whose, and when it was served. */
export interface OfflineFallback {
  username: string;
  /** When the server served the copy (ms); null for a copy that is damaged (Unlock then says so). */
  savedAt: number | null;
  /** A passkey unlocked this vault online here, so it can open the copy too. */
  passkey: boolean;
}

/**
 * Whether the vault's Unlock should open this device's offline copy: the session check failed
 * (no network, the server down) or has not answered within SERVER_ANSWER_WAIT_MS, this browser
 * is bound to an account (it signed in here) and holds a copy of its vault. Null while the
 * server answers, or when there is nothing to open; undefined while it is being found out.
 *
 * Security invariant: it only decides which Unlock to show. The copy is read again and checked
 * whole when the password is given (unlockOffline), never trusted from here.
 */
export function useOfflineFallback(serverAnswered: boolean, serverFailed: boolean): OfflineFallback | null | undefined {
  const [found, setFound] = useState<OfflineFallback | null | undefined>(undefined);
  useEffect(() => {
    // The server answered: nothing to look for (the hook answers null below).
    if (serverAnswered) return;
    let cancelled = false;
    const timer = setTimeout(
      () => {
        void probe().then((result) => {
          if (!cancelled) setFound(result);
        });
      },
      serverFailed ? 0 : SERVER_ANSWER_WAIT_MS,
    );
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [serverAnswered, serverFailed]);
  return serverAnswered ? null : found;
}

async function probe(): Promise<OfflineFallback | null> {
  try {
    const account = await deviceMemory.sessionAccount();
    if (account === null) return null;
    const copy = await readOfflineCopy(offlineCopies, account);
    const passkey = (await readPasskeyUnlocks(offlineCopies, account)).length > 0;
    return { username: copy.username, savedAt: copy.savedAt, passkey };
  } catch (error) {
    // A damaged copy is still offered: its Unlock says plainly why it does not open.
    if (error instanceof OfflineCopyDamagedError) return { username: '', savedAt: null, passkey: false };
    return null;
  }
}
