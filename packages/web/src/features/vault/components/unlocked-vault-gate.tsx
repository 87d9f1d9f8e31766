import { useCallback, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useSessionQuery } from '@/api/verify-session';
import { buttonPrimary } from '@/components/ui/styles';
import { paths } from '@/config/paths';
import type { UnlockedVault } from '@/lib/keyring';
import { useKeyring, useKeyringRestoring, useUnlockedVault } from '@/lib/keyring-context';
import { offlineCopyOf } from '@/lib/offline/opened-offline-registry';
import { useOfflineFallback } from '@/lib/offline/use-offline-fallback';
import { OfflineNotice } from './offline-notice';
import { UnlockForm } from './unlock-form';

/** What a page behind the gate gets: this tab's vault key, and the list an unlock just fetched. */
export interface GateVault {
  vaultKey: CryptoKey;
  /** Set once, by the unlock that happened on this page, for exactly this vault key. */
  prefetchedEntries: Promise<unknown[]> | undefined;
  /** Changes with the vault key: a page keyed on it keeps nothing decrypted under another key. */
  viewKey: number;
}

/**
 * Every page of the vault (the list, health, import, export). The session is checked on
 * every visit (POST verify, "Success" only). A live session whose vault key this tab does not
 * hold, or holds for another account (someone else signed in meanwhile), gets the Unlock form
 * instead of the page; no session gets the spec's Access Denied.
 *
 * With the server unreachable (the session check fails, or has not answered within 2 s), a
 * browser that signed in here and keeps an offline copy gets the offline Unlock instead of
 * Access Denied; the vault it opens is the copy, and says so (OfflineNotice); its changes wait in the queue of
 * writes made offline until the server answers.
 */
export function UnlockedVaultGate({ heading, children }: { heading: string; children: (vault: GateVault) => ReactNode }) {
  const session = useSessionQuery();
  const keyring = useKeyring();
  const vault = useUnlockedVault();
  // A reload opening the vault it kept: the Unlock form would only flash.
  const restoring = useKeyringRestoring();
  const [prefetched, setPrefetched] = useState<{ vaultKey: CryptoKey; entries: Promise<unknown[]> } | null>(null);
  const onUnlocked = useCallback(
    (unlocked: UnlockedVault, entries: Promise<unknown[]>) => {
      setPrefetched({ vaultKey: unlocked.vaultKey, entries });
      keyring.unlock(unlocked);
    },
    [keyring],
  );
  const fallback = useOfflineFallback(session.isSuccess, session.isError);
  const offlineCopy = vault ? offlineCopyOf(vault.vaultKey) : undefined;
  if (vault && offlineCopy) {
    return (
      <section className="mx-auto max-w-6xl px-4 py-8 sm:py-12">
        <h1 className="text-3xl font-bold text-white">{heading}</h1>
        <OfflineNotice savedAt={offlineCopy.savedAt} />
        {children({
          vaultKey: vault.vaultKey,
          prefetchedEntries: prefetched?.vaultKey === vault.vaultKey ? prefetched.entries : undefined,
          viewKey: viewKeyOf(vault.vaultKey),
        })}
      </section>
    );
  }
  if (!session.isSuccess && fallback) {
    return (
      <section className="mx-auto max-w-6xl px-4 py-8 sm:py-12">
        <h1 className="text-3xl font-bold text-white">{heading}</h1>
        <UnlockForm username={fallback.username || undefined} offline={fallback} onUnlocked={onUnlocked} />
      </section>
    );
  }
  // A failed check waits for the look for an offline copy before it says Access Denied.
  if (!session.isFetchedAfterMount || restoring || (session.isError && fallback === undefined)) {
    return <p className="py-24 text-center text-lg text-slate-300">Checking...</p>;
  }
  if (!session.isSuccess || !session.data.signedIn) return <AccessDenied />;

  const account = session.data.username;
  const unlocked = vault !== null && (account === undefined || sameAccount(account, vault.username));
  return (
    <section className="mx-auto max-w-6xl px-4 py-8 sm:py-12">
      <h1 className="text-3xl font-bold text-white">{heading}</h1>
      {unlocked ? (
        children({
          vaultKey: vault.vaultKey,
          prefetchedEntries: prefetched?.vaultKey === vault.vaultKey ? prefetched.entries : undefined,
          viewKey: viewKeyOf(vault.vaultKey),
        })
      ) : (
        <UnlockForm username={account} onUnlocked={onUnlocked} />
      )}
    </section>
  );
}

/** A new vault key gets a fresh view: nothing decrypted under one key survives into another. */
const viewKeys = new WeakMap<CryptoKey, number>();
let nextViewKey = 0;
function viewKeyOf(vaultKey: CryptoKey): number {
  let key = viewKeys.get(vaultKey);
  if (key === undefined) {
    key = nextViewKey++;
    viewKeys.set(vaultKey, key);
  }
  return key;
}

/** Account names are unique ignoring case. */
const sameAccount = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

function AccessDenied() {
  const navigate = useNavigate();
  return (
    <section className="mx-auto max-w-md px-4 py-24 text-center">
      <h1 className="text-lg font-semibold text-slate-100">
        Access Denied - You must be logged in to access the Password Vault.
      </h1>
      <button type="button" onClick={() => navigate(paths.signIn)} className={`${buttonPrimary} mt-6`}>
        Go to Sign In
      </button>
    </section>
  );
}
