/** zxcvbn's score: 0 too guessable ... 4 very unguessable (strong protection from an offline slow-hash attack). */
export type StrengthScore = 0 | 1 | 2 | 3 | 4;

/** What the meter, the master-password policy and the health report know of a password's strength. */
export interface StrengthReport {
  score: StrengthScore;
  /** log10 of zxcvbn's estimate of the guesses an attacker needs. */
  guessesLog10: number;
  /** zxcvbn's time to crack at 10,000 guesses a second (a slow hash), in words: "3 years". */
  crackTime: string;
  /** What is wrong, in words ("This is a commonly used password."), or null. */
  warning: string | null;
  /** How to do better, in words ("Add more words that are less common."). */
  suggestions: string[];
}

export const STRENGTH_LABELS: Record<StrengthScore, string> = {
  0: 'Very weak',
  1: 'Weak',
  2: 'Fair',
  3: 'Strong',
  4: 'Very strong',
};
