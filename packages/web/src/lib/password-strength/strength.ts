import type { StrengthReport } from './strength-report';

export type { StrengthReport, StrengthScore } from './strength-report';
export { STRENGTH_LABELS } from './strength-report';

let engine: Promise<typeof import('./zxcvbn-engine')> | undefined;

/**
 * Loads zxcvbn on first use (a chunk of its own, never part of /home's first load) and keeps
 * it: later calls answer as soon as the scorer has run.
 */
export function loadStrengthEngine(): Promise<typeof import('./zxcvbn-engine')> {
  engine ??= import('./zxcvbn-engine').catch((error: unknown) => {
    // A failed chunk load (offline, a new release) may be retried by the next call.
    engine = undefined;
    throw error;
  });
  return engine;
}

/** The strength of `password`; `userInputs` are words an attacker knows (user name, email). */
export async function estimateStrength(password: string, userInputs: readonly string[] = []): Promise<StrengthReport> {
  const { scorePassword } = await loadStrengthEngine();
  return scorePassword(password, userInputs);
}
