import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { NetworkError, serverMessageOf } from '@/lib/api-errors';
import { useKeyring } from '@/lib/keyring-context';
import { MissingHistoryError } from '../lib/read-vault';
import {
  rotateVaultKey,
  RotationOutcomeUnknownError,
  RotationStoppedError,
  type RotationDone,
  type RotationProgress,
} from '../lib/rotate-vault-key';

export type RotationView =
  | { status: 'idle' }
  | { status: 'running'; progress: RotationProgress }
  | { status: 'done'; committed: RotationDone['committed'] }
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
        const done = await rotateVaultKey({
          vault,
          authKey: keys.authKey,
          wrapKey: keys.wrapKey,
          onProgress: (progress) => setView({ status: 'running', progress }),
        });
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

const pickKeys = ({ vaultKey, integrityKey, protectedKey, keyGeneration, keyEpoch, reloadSeal }: RotationDone['vault']) => ({
  vaultKey,
  integrityKey,
  protectedKey,
  keyGeneration,
  keyEpoch,
  reloadSeal,
});
