import { useCallback, useMemo, useState } from 'react';
import { usePublicConfig } from '@/api/get-public-config';
import { useToast } from '@/components/ui/toast';
import { BREACH_PRIVACY_SENTENCE } from '@/lib/password-strength/breach-check';
import { useVaultEntries } from '../hooks/use-vault-entries';
import type { OpenEntry } from '@lockit/client-core';
import { HealthFindings, ExcludedItems } from './health-findings';
import { HealthSummary } from './health-summary';
import { useHealthSettings, withExclusion } from './health-settings';
import { useHealthReport } from './use-health-report';

/**
 * The report over the live items of the vault: computed in a worker (use-health-report.ts),
 * with the person's choices (breach check opt-in, exclusions) in the encrypted
 * 'health-settings' document.
 */
export function HealthView({ vaultKey, prefetchedEntries }: { vaultKey: CryptoKey; prefetchedEntries?: Promise<unknown[]> }) {
  const { state } = useVaultEntries(vaultKey, prefetchedEntries);
  const settings = useHealthSettings();
  const config = usePublicConfig();
  const toast = useToast();
  const [saving, setSaving] = useState(false);
  // The box shows the person's choice at once; the document follows (or the toast says why not).
  const [breachChoice, setBreachChoice] = useState<boolean | null>(null);

  const loaded = state.status === 'ready' ? state.entries : null;
  const live = useMemo(
    () => loaded?.filter((entry): entry is OpenEntry => entry.status === 'open' && entry.deletedAt === null) ?? null,
    [loaded],
  );
  const byId = useMemo(() => new Map((live ?? []).map((entry) => [entry.id, entry])), [live]);

  const serverBreachUrl = config.data?.breachCheckUrl ?? null;
  const breachCheckUrl = settings.status === 'ready' && settings.value.breachCheck ? serverBreachUrl : null;
  const excluded = settings.value.excluded;
  const health = useHealthReport(vaultKey, settings.status === 'loading' ? null : live, excluded, breachCheckUrl);

  const change = useCallback(
    async (update: Parameters<typeof settings.update>[0], failure: string) => {
      setSaving(true);
      const outcome = await settings.update(update);
      setSaving(false);
      if (!outcome.ok) toast({ kind: 'error', message: `${failure} ${outcome.message}`, durationMs: 4000 });
    },
    [settings, toast],
  );
  const setExcluded = useCallback(
    (id: string, exclude: boolean) =>
      void change(
        (current) => withExclusion(current, id, exclude),
        exclude ? 'Could not exclude the item.' : 'Could not include the item.',
      ),
    [change],
  );

  if (state.status === 'failed') return <p className="mt-6 text-slate-300">The vault could not be loaded. Try again later.</p>;
  return (
    <div className="mt-6 flex flex-col gap-6">
      {settings.status === 'damaged' && (
        <p role="alert" className="rounded-lg border border-amber-500/60 bg-amber-950/60 px-3 py-2 text-sm text-amber-100">
          Your health settings could not be decrypted; the report uses the defaults until you change them.
        </p>
      )}
      <section aria-labelledby="breach-check-title" className="rounded-xl border border-slate-800 bg-slate-900/60 p-4">
        <h2 id="breach-check-title" className="text-lg font-semibold text-white">
          Breach check
        </h2>
        {serverBreachUrl === null && config.isSuccess ? (
          <p className="mt-1 text-sm text-slate-300">The breach check is turned off on this server.</p>
        ) : (
          <>
            <label className="mt-2 flex items-start gap-2 text-sm text-slate-200">
              <input
                type="checkbox"
                className="mt-1"
                checked={breachChoice ?? settings.value.breachCheck}
                disabled={settings.status !== 'ready' || saving}
                onChange={(event) => {
                  const on = event.target.checked;
                  setBreachChoice(on);
                  void change((current) => ({ ...current, breachCheck: on }), 'Could not save the breach check setting.').finally(
                    () => setBreachChoice(null),
                  );
                }}
              />
              <span>Check my passwords against known data breaches (off unless you turn it on)</span>
            </label>
            <p className="mt-1 text-sm text-slate-400">{BREACH_PRIVACY_SENTENCE}</p>
          </>
        )}
      </section>
      {health.status === 'failed' ? (
        <p role="alert" className="text-slate-200">
          {health.message}
        </p>
      ) : health.status === 'computing' || live === null ? (
        <p role="status" className="text-slate-300">
          Checking your passwords…
        </p>
      ) : (
        <>
          <HealthSummary report={health.report} breach={health.breach} />
          <HealthFindings report={health.report} entries={byId} onExclude={(id) => setExcluded(id, true)} busy={saving} />
          <ExcludedItems ids={excluded} entries={byId} onInclude={(id) => setExcluded(id, false)} busy={saving} />
        </>
      )}
    </div>
  );
}
