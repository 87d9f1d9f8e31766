import { vaultStateFingerprint } from '@lockit/client-core';
import { useId, useSyncExternalStore } from 'react';
import { card } from '@/components/ui/styles';
import { useKeyring } from '@/lib/keyring-context';
import { vaultIntegrityOf } from '@/lib/vault-integrity-of';

const noSubscribe = () => () => undefined;

/**
 * The vault state this browser verified, as a number and a short code a person compares with
 * another device of the account: the one defence a brand-new browser has against a server that
 * serves it a consistent old snapshot (it cannot know what it never saw; the person's other
 * device can). Only a state that passed this tab's whole-vault check is shown, never one the
 * server merely sent.
 */
export function VaultStateSection() {
  const titleId = useId();
  const integrity = vaultIntegrityOf(useKeyring());
  const state = useSyncExternalStore(integrity?.subscribe ?? noSubscribe, () => integrity?.verifiedState ?? null);
  const fingerprint = state === null ? null : vaultStateFingerprint(state);
  return (
    <section aria-labelledby={titleId} className={card}>
      <h2 id={titleId} className="mb-4 text-xl font-semibold text-white">
        Vault state
      </h2>
      {fingerprint ? (
        <>
          <p className="text-slate-300">
            This browser verified your vault at{' '}
            <strong className="whitespace-nowrap font-mono text-white">
              {fingerprint.counter} · {fingerprint.code}
            </strong>
            .
          </p>
          <p className="mt-2 text-sm text-slate-400">
            Your other devices show the same number and code once they have your latest changes. The same number with a different
            code, or a number that stays behind after a reload, means your server is showing your devices different vaults.
          </p>
        </>
      ) : (
        <p className="text-slate-300">Open your vault in this tab to see the state this browser verified.</p>
      )}
    </section>
  );
}
