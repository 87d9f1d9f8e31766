import { useEffect, useMemo, useState } from 'react';
import { api } from '@/lib/http';
import { fetchEntryHistory } from '@lockit/client-core';
import { mark } from '../lib/perf-marks';
import type { OpenEntry } from '@lockit/client-core';
import type { HealthItemInput } from './compute-health';
import { buildReport, type HealthReport, type ItemFacts } from './health-analysis';
import { runHealthReport } from './health-client';
import { withHistoryWhereNeeded } from './history-for-age';

export const HEALTH_START_MARK = 'lockit:health-start';
export const HEALTH_READY_MARK = 'lockit:health-ready';

export type BreachState = 'off' | 'checking' | 'done' | { failed: string };

export type HealthState =
  | { status: 'computing' }
  | { status: 'failed'; message: string }
  | { status: 'ready'; report: HealthReport; breach: BreachState };

/** What the worker needs of a live entry: its ciphertexts and what the list already knows. */
export function healthInputOf(entry: OpenEntry): HealthItemInput {
  return {
    id: entry.id,
    isLogin: entry.type === 'login',
    createdAt: entry.createdAt,
    updatedAt: entry.updatedAt,
    urls: entry.urls.length === 0 && entry.url ? [entry.url] : entry.urls,
    hasTotp: entry.hasTotp,
    password: entry.sealed.password,
    fieldSet: entry.sealed.fieldSet,
  };
}

/**
 * The report for `entries` (live, open ones): the worker computes facts once per list; the
 * exclusions re-build the report from them on the main thread (a few milliseconds for 10,000).
 * `breachCheckUrl` null: no breach check.
 */
export function useHealthReport(
  vaultKey: CryptoKey,
  entries: readonly OpenEntry[] | null,
  excluded: readonly string[],
  breachCheckUrl: string | null,
): HealthState {
  // Each answer is tagged with the run it belongs to: one of an older run is never shown.
  const run = useMemo(() => ({ entries, breachCheckUrl }), [entries, breachCheckUrl]);
  const [facts, setFacts] = useState<{ run: object; facts: ItemFacts[] } | null>(null);
  const [breachAnswer, setBreaches] = useState<
    { run: object; counts: Record<string, number> } | { run: object; failed: string } | null
  >(null);
  const [failure, setFailed] = useState<{ run: object; message: string } | null>(null);
  const [now] = useState(() => Date.now());

  useEffect(() => {
    const { entries, breachCheckUrl } = run;
    if (entries === null) return;
    const controller = new AbortController();
    let stop = () => {};
    void (async () => {
      mark(HEALTH_START_MARK);
      const inputs = await withHistoryWhereNeeded(
        entries.map(healthInputOf),
        now,
        (id) => fetchEntryHistory(api, id),
        controller.signal,
      ).catch(() => null);
      if (inputs === null || controller.signal.aborted) return;
      stop = runHealthReport({ vaultKey, now, items: inputs }, breachCheckUrl, {
        onFacts: (computed) => setFacts({ run, facts: computed }),
        onBreaches: (counts) => setBreaches({ run, counts }),
        onBreachFailed: (message) => setBreaches({ run, failed: message }),
        onFailed: (message) => setFailed({ run, message }),
      });
    })();
    return () => {
      controller.abort();
      stop();
    };
  }, [vaultKey, run, now]);

  const current = facts?.run === run ? facts.facts : null;
  const breaches = breachAnswer?.run === run ? breachAnswer : null;
  const failed = failure?.run === run ? failure.message : null;
  const report = useMemo(() => {
    if (current === null) return null;
    const counts = breaches !== null && 'counts' in breaches ? breaches.counts : {};
    const merged = current.map((fact) => (counts[fact.id] ? { ...fact, breachCount: counts[fact.id]! } : fact));
    return buildReport(merged, { now, excluded: new Set(excluded), breachChecked: breaches !== null && 'counts' in breaches });
  }, [current, breaches, excluded, now]);

  const ready = report !== null;
  useEffect(() => {
    if (ready) mark(HEALTH_READY_MARK);
  }, [ready]);

  if (failed !== null) return { status: 'failed', message: failed };
  if (report === null) return { status: 'computing' };
  const breach: BreachState =
    breachCheckUrl === null
      ? 'off'
      : breaches === null
        ? 'checking'
        : 'counts' in breaches
          ? 'done'
          : { failed: breaches.failed };
  return { status: 'ready', report, breach };
}
