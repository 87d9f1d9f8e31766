/// <reference lib="webworker" />
import { serveJobs, type WorkerScope } from '@lockit/client-core';
import { breachCheckerFor, BreachCheckError } from '@/lib/password-strength/breach-check';
import { computeBreachCounts, computeHealthFacts, digestsOf, type HealthItemInput, type Scorer } from './compute-health';
import { HEALTH_SLICE, type HealthEvent, type HealthJob } from './health-protocol';

/**
 * The health report's worker: passwords are opened, digested and scored here, off the main
 * thread, and never leave it; the page gets facts with opaque tokens in place of passwords.
 * zxcvbn loads when the health page asks the worker to warm up (while the vault opens), or
 * else only if some password is not plainly random. Range answers of the breach
 * check are kept for the worker's life (the page keeps one worker per tab).
 */
const loadEngine = () => import('@/lib/password-strength/zxcvbn-engine');
const scorer: Scorer = async (password) => (await loadEngine()).scorePassword(password).score;

/** Items of the run being received, until its last slice. */
const pending = new Map<number, HealthItemInput[]>();

serveJobs<HealthJob, null, HealthEvent>(self as unknown as WorkerScope, async (job, emit) => {
  if ('warm' in job) {
    // The report's first password then scores at once; a failed load is retried by the scorer.
    loadEngine().catch(() => undefined);
    return { answer: null };
  }
  const { runId, breachCheckUrl, done, items, ...request } = job;
  const received = pending.get(runId) ?? [];
  for (const item of items) received.push(item);
  if (!done) {
    pending.set(runId, received);
    return { answer: null };
  }
  pending.delete(runId);
  let passwords: Map<string, string>;
  try {
    const computed = await computeHealthFacts({ ...request, items: received }, scorer);
    passwords = computed.passwords;
    const { facts, zxcvbnRuns } = computed;
    // In slices, so the page reads each in a short task.
    for (let start = 0; start < facts.length || start === 0; start += HEALTH_SLICE) {
      const last = start + HEALTH_SLICE >= facts.length;
      emit({ kind: 'facts', facts: facts.slice(start, start + HEALTH_SLICE), done: last, zxcvbnRuns });
    }
  } catch {
    throw new Error('The health report could not be computed.');
  }
  if (breachCheckUrl === null) return { answer: null };
  try {
    const digests = await digestsOf(passwords);
    emit({ kind: 'breaches', counts: await computeBreachCounts(digests, breachCheckerFor(breachCheckUrl)) });
  } catch (error) {
    emit({ kind: 'breach-failed', message: error instanceof BreachCheckError ? error.message : 'The breach check failed.' });
  }
  return { answer: null };
});
