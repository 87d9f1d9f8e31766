import { estimateStrength } from './strength';
import type { StrengthReport, StrengthScore } from './strength-report';

/** The shortest master password Lockit accepts. */
export const MASTER_PASSWORD_MIN_LENGTH = 12;

/**
 * The lowest zxcvbn score Lockit accepts for a master password: 3, "safely unguessable:
 * moderate protection from an offline slow-hash scenario" in zxcvbn's own definition
 * (at least 10^8 guesses). Why that bar: the master password is the only secret between a
 * stolen database (or a hostile server) and every item, and the server's copy of the wrapped
 * vault key lets an attacker test guesses offline, at the cost of one Argon2id each and
 * nothing else; no rate limit applies. Scores 0-2 only resist online guessing. Together with
 * Argon2id at 64 MiB (far slower than the 10,000 guesses a second zxcvbn assumes for a slow
 * hash), a score of 3 puts a guess of the whole space at years of GPU time.
 */
export const MASTER_PASSWORD_MIN_SCORE: StrengthScore = 3;

export const TOO_SHORT = `Use at least ${MASTER_PASSWORD_MIN_LENGTH} characters.`;
export const TOO_GUESSABLE = 'This password is too easy to guess. Add another word or two: uncommon words are better.';
export const NO_MATCH = 'The passwords do not match.';

/** Why a master password is refused, each reason one sentence saying how to pass. Empty: accepted. */
export type MasterPasswordProblems = string[];

/**
 * The policy itself, on a strength already measured (pure, so it can be tested on its own):
 * length, score, then the confirmation. zxcvbn's own warning and suggestions follow the score
 * reason, so the person learns what made it guessable ("Avoid dates and years...").
 */
export function masterPasswordProblems(
  password: string,
  confirmation: string,
  strength: Pick<StrengthReport, 'score' | 'warning' | 'suggestions'>,
): MasterPasswordProblems {
  const problems: string[] = [];
  if ([...password].length < MASTER_PASSWORD_MIN_LENGTH) problems.push(TOO_SHORT);
  if (strength.score < MASTER_PASSWORD_MIN_SCORE) {
    problems.push(TOO_GUESSABLE);
    if (strength.warning) problems.push(strength.warning);
    for (const suggestion of strength.suggestions) if (!problems.includes(suggestion)) problems.push(suggestion);
  }
  if (password !== confirmation) problems.push(NO_MATCH);
  return problems;
}

/**
 * Checks a new master password in the browser (the server never sees it): loads zxcvbn if
 * needed and measures it with what an attacker would know of the person (`userInputs`:
 * user name, email, full name) counted as guessable.
 */
export async function checkMasterPassword(
  password: string,
  confirmation: string,
  userInputs: readonly string[] = [],
): Promise<MasterPasswordProblems> {
  const strength = await estimateStrength(password, userInputs);
  return masterPasswordProblems(password, confirmation, strength);
}
