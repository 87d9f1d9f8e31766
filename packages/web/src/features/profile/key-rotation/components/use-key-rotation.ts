import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import {
  MissingHistoryError,
  poolSize,
  rotateVaultKey,
  RotationOutcomeUnknownError,
  RotationStoppedError,
  WorkerPool,
  type ResealPool,
  type RotationCommitted,
  type RotationProgress,
} from '@lockit/client-core';
import { NetworkError, serverMessageOf } from '@/lib/api-errors';
import { deviceMemory } from '@/lib/device-memory';
import { api } from '@/lib/http';
import type { UnlockedVault } from '@/lib/keyring';
import { useKeyring } from '@/lib/keyring-context';
import { asWorkerPort } from '@/lib/page-worker';
import { sealForReload } from '@/lib/reload-unlock/reload-vault';

export type RotationView =
  | { status: 'idle' }
  | { status: 'running'; progress: RotationProgress }
  | { status: 'done'; committed: RotationCommitted | null }
  | { status: 'failed'; message: string };

const UNCHANGED = 'Your encryption key was not rotated, and your vault is unchanged.';

function failureMessage(error: unknown): string {
  if (error instanceof RotationStoppedError) return `${error.message} ${UNCHANGED}`;
  if (error instanceof MissingHistoryError) return `The server did not send the history of every item. ${UNCHANGED}`;
  if (error instanceof NetworkError) return `Lockit could not reach the server. ${UNCHANGED}`;
  const server = serverMessageOf(error);
  return server ? `${server} ${UNCHANGED}` : `Something went wrong. ${UNCHANGED}`;
}

/**
 * Runs a key rotation for this tab's unlocked vault and follows it. The new keys go into the
 * keyring as soon as the server committed, whether or not this component is still shown, and
 * only if the tab still holds the vault the rotation began with (locked meanwhile: it stays
 * locked, and the next unlock reads the new wrapped key).
 */
export function useKeyRotation() {
  const keyring = useKeyring();
  const queryClient = useQueryClient();
  const [view, setView] = useState<RotationView>({ status: 'idle' });

  const rotate = useCallback(
    async (keys: { authKey: string; wrapKey: CryptoKey }) => {
      const vault = keyring.vault;
      if (!vault) {
        setView({ status: 'failed', message: `Your vault is locked. Unlock it and try again. ${UNCHANGED}` });
        return;
      }
      setView({ status: 'running', progress: { step: 'reading' } });
      try {
        const done = await rotateThisVault(vault, keys, (progress) => setView({ status: 'running', progress }));
        if (keyring.vault?.vaultKey === vault.vaultKey) {
          keyring.unlock({ ...keyring.vault, ...pickKeys(done.vault) }, keyring.lastActivityAt);
        }
        // Sessions, passkeys and every view of the vault (its queries follow the new key).
        void queryClient.invalidateQueries();
        setView({ status: 'done', committed: done.committed });
      } catch (error) {
        if (error instanceof RotationOutcomeUnknownError) {
          // The old key may open nothing on the server now: the next unlock reads what it holds.
          keyring.clear();
          setView({
            status: 'failed',
            message: `${error.message} Your vault was locked: unlock it with your master password to continue.`,
          });
          return;
        }
        setView({ status: 'failed', message: failureMessage(error) });
      }
    },
    [keyring, queryClient],
  );

  return { view, rotate };
}

const pickKeys = ({ vaultKey, integrityKey, protectedKey, keyGeneration, keyEpoch, reloadSeal }: UnlockedVault) => ({
  vaultKey,
  integrityKey,
  protectedKey,
  keyGeneration,
  keyEpoch,
  reloadSeal,
});

/** The re-encryption workers of one rotation (lib/reseal-worker.ts), or none where the page has no workers. */
function resealPool(): ResealPool | undefined {
  if (typeof Worker === 'undefined') return undefined;
  return new WorkerPool({
    spawn: (index) =>
      asWorkerPort(
        new Worker(new URL('../lib/reseal-worker.ts', import.meta.url), {
          type: 'module',
          name: `lockit-key-rotation-${index + 1}`,
        }),
      ),
    size: poolSize(navigator.hardwareConcurrency),
  });
}

/**
 * The client core's rotation (rotateVaultKey) on this tab's platform: the page's API client,
 * this browser's device memory, workers made for the rotation and ended with it, and a seal of
 * the new key for a reload. Resolves with the vault as this tab must hold it from now on.
 */
export async function rotateThisVault(
  vault: UnlockedVault,
  keys: { authKey: string; wrapKey: CryptoKey },
  onProgress: (progress: RotationProgress) => void,
): Promise<{ vault: UnlockedVault; committed: RotationCommitted | null }> {
  const pool = resealPool();
  try {
    const done = await rotateVaultKey(
      { api, deviceMemory, resealPool: pool },
      { vault, authKey: keys.authKey, wrapKey: keys.wrapKey, onProgress, keepNewKey: sealForReload },
    );
    return { vault: { ...vault, ...done.keys, reloadSeal: done.kept }, committed: done.committed };
  } finally {
    pool?.terminate();
  }
}
