import { describe, expect, it } from 'vitest';
import { checkMasterPassword, masterPasswordProblems, NO_MATCH, TOO_GUESSABLE, TOO_SHORT } from './master-password-policy';

const strong = { score: 4 as const, warning: null, suggestions: [] };

describe('master-password policy', () => {
  it('accepts 12 or more characters at score 3 or 4 when the confirmation matches', () => {
    expect(masterPasswordProblems('twelve chars', 'twelve chars', strong)).toEqual([]);
    expect(masterPasswordProblems('twelve chars', 'twelve chars', { ...strong, score: 3 })).toEqual([]);
  });

  it('counts characters, not UTF-16 units: 11 emoji are too short', () => {
    const elevenEmoji = '🔐'.repeat(11);
    expect(masterPasswordProblems(elevenEmoji, elevenEmoji, strong)).toEqual([TOO_SHORT]);
  });

  it("refuses a score of 2 or less, with zxcvbn's warning and suggestions after the reason", () => {
    const problems = masterPasswordProblems('long enough but weak', 'long enough but weak', {
      score: 2,
      warning: 'Dates are often easy to guess.',
      suggestions: ['Avoid dates and years that are associated with you.'],
    });
    expect(problems).toEqual([
      TOO_GUESSABLE,
      'Dates are often easy to guess.',
      'Avoid dates and years that are associated with you.',
    ]);
  });

  it('refuses a confirmation that differs, by even one character', () => {
    expect(masterPasswordProblems('a quiet violet orchard', 'a quiet violet orchard ', strong)).toEqual([NO_MATCH]);
  });

  it('gives every reason at once', () => {
    expect(masterPasswordProblems('abc', 'abd', { score: 0, warning: null, suggestions: [] })).toEqual([
      TOO_SHORT,
      TOO_GUESSABLE,
      NO_MATCH,
    ]);
  });

  it('measures with zxcvbn: a common password is refused, a long uncommon passphrase passes', async () => {
    expect(await checkMasterPassword('password1234', 'password1234')).toContain(TOO_GUESSABLE);
    expect(await checkMasterPassword('qwerty123456', 'qwerty123456')).toContain(TOO_GUESSABLE);
    expect(await checkMasterPassword('a quiet violet orchard', 'a quiet violet orchard')).toEqual([]);
  });

  it("treats the person's own names as known to the attacker", async () => {
    expect(await checkMasterPassword('zorblaxquintel', 'zorblaxquintel', [])).toEqual([]);
    expect(await checkMasterPassword('zorblaxquintel', 'zorblaxquintel', ['zorblax', 'quintel'])).toContain(TOO_GUESSABLE);
  });
});
