import { describe, expect, it } from 'vitest';
import { DEFAULT_GENERATOR_SETTINGS, PASSWORD_LENGTH, type PasswordOptions } from './generator-settings';
import {
  CHARACTER_SETS,
  generatePassword,
  GeneratorOptionsError,
  LOOK_ALIKES,
  passwordEntropyBits,
  passwordOptionsProblem,
} from './password';

const base = DEFAULT_GENERATOR_SETTINGS.password;
const only = (cls: 'upper' | 'lower' | 'digits' | 'symbols', extra: Partial<PasswordOptions> = {}): PasswordOptions => ({
  ...base,
  upper: cls === 'upper',
  lower: cls === 'lower',
  digits: cls === 'digits',
  symbols: cls === 'symbols',
  minDigits: 0,
  minSymbols: 0,
  ...extra,
});
const count = (text: string, set: string) => [...text].filter((c) => set.includes(c)).length;

describe('generatePassword', () => {
  it('makes exactly the asked length, for every length from 5 to 128', () => {
    for (let length = PASSWORD_LENGTH.min; length <= PASSWORD_LENGTH.max; length++) {
      expect(generatePassword({ ...base, length })).toHaveLength(length);
    }
  });

  it('uses only the chosen classes, one class at a time', () => {
    for (const cls of ['upper', 'lower', 'digits', 'symbols'] as const) {
      const password = generatePassword(only(cls, { length: 64 }));
      expect(
        [...password].every((c) => CHARACTER_SETS[cls].includes(c)),
        cls,
      ).toBe(true);
    }
  });

  it('always has at least one character of every chosen class, even at the shortest length', () => {
    for (let i = 0; i < 2_000; i++) {
      const password = generatePassword({ ...base, length: 5, minDigits: 1, minSymbols: 1 });
      for (const set of Object.values(CHARACTER_SETS)) expect(count(password, set)).toBeGreaterThanOrEqual(1);
    }
  });

  it('honours the minimum digits and symbols', () => {
    for (let i = 0; i < 500; i++) {
      const password = generatePassword({ ...base, length: 12, minDigits: 4, minSymbols: 5 });
      expect(count(password, CHARACTER_SETS.digits)).toBeGreaterThanOrEqual(4);
      expect(count(password, CHARACTER_SETS.symbols)).toBeGreaterThanOrEqual(5);
    }
    // Exactly the length in minimums: all of them, and every class still present.
    const full = generatePassword({ ...base, length: 10, minDigits: 4, minSymbols: 4 });
    expect(count(full, CHARACTER_SETS.digits)).toBe(4);
    expect(count(full, CHARACTER_SETS.symbols)).toBe(4);
  });

  it('ignores the minimum of a class that is turned off', () => {
    const password = generatePassword({ ...base, digits: false, minDigits: 9, length: 8 });
    expect(count(password, CHARACTER_SETS.digits)).toBe(0);
  });

  it('leaves out look-alike characters (I, l, 1, O, 0) when asked, and only then', () => {
    const avoided = Array.from({ length: 300 }, () => generatePassword({ ...base, length: 64, avoidAmbiguous: true })).join('');
    expect([...LOOK_ALIKES].filter((c) => avoided.includes(c))).toEqual([]);
    const plain = Array.from({ length: 300 }, () => generatePassword({ ...base, length: 64 })).join('');
    expect([...LOOK_ALIKES].filter((c) => plain.includes(c))).toEqual([...LOOK_ALIKES]);
  });

  it('refuses options that make no password, saying why', () => {
    const none = { ...base, upper: false, lower: false, digits: false, symbols: false };
    expect(passwordOptionsProblem(none)).toBe('Choose at least one kind of character.');
    expect(() => generatePassword(none)).toThrow(GeneratorOptionsError);
    const tooMany = { ...base, length: 6, minDigits: 3, minSymbols: 3 };
    expect(passwordOptionsProblem(tooMany)).toBe(
      'The minimums need 8 characters: make the password at least that long, or lower them.',
    );
    expect(() => generatePassword(tooMany)).toThrow('The minimums need 8 characters');
    expect(passwordOptionsProblem(base)).toBeNull();
  });

  it('is uniform over the alphabet: chi-square over 26 letters of 2,000 lower-case passwords', () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 2_000; i++) {
      for (const c of generatePassword(only('lower', { length: 20 }))) counts.set(c, (counts.get(c) ?? 0) + 1);
    }
    const values = [...counts.values()];
    const expected = 40_000 / 26;
    const statistic = values.reduce((sum, n) => sum + (n - expected) ** 2 / expected, 0);
    expect(counts.size).toBe(26);
    // chi2.ppf(0.999, 25)
    expect(statistic).toBeLessThan(52.62);
  });

  it('puts the required characters anywhere: digits fall on every position equally often (chi-square)', () => {
    // One required digit among 8 characters: were it not shuffled, it would always sit in one place.
    const positions = new Array<number>(8).fill(0);
    for (let i = 0; i < 8_000; i++) {
      const password = generatePassword({ ...only('lower', { length: 8 }), digits: true, minDigits: 1 });
      [...password].forEach((c, at) => {
        if (CHARACTER_SETS.digits.includes(c)) positions[at]!++;
      });
    }
    const expected = positions.reduce((a, b) => a + b, 0) / 8;
    const statistic = positions.reduce((sum, n) => sum + (n - expected) ** 2 / expected, 0);
    // chi2.ppf(0.999, 7)
    expect(statistic).toBeLessThan(24.322);
  });

  it('makes 1,000 passwords of 128 characters well under a second (one appears in under 16 ms)', () => {
    const started = performance.now();
    for (let i = 0; i < 1_000; i++) generatePassword({ ...base, length: 128 });
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

describe('passwordEntropyBits', () => {
  it('is length x log2(alphabet) for one class, counting required characters by their class', () => {
    expect(passwordEntropyBits(only('lower', { length: 10 }))).toBeCloseTo(10 * Math.log2(26), 10);
    // 20 of all four (89 characters): 1 upper, 1 lower, 1 digit, 1 symbol, 16 from all.
    const expected = Math.log2(26) * 2 + Math.log2(10) + Math.log2(27) + 16 * Math.log2(89);
    expect(passwordEntropyBits(base)).toBeCloseTo(expected, 10);
  });

  it('drops when look-alikes are avoided, and is 0 for options that make nothing', () => {
    expect(passwordEntropyBits({ ...base, avoidAmbiguous: true })).toBeLessThan(passwordEntropyBits(base));
    expect(passwordEntropyBits({ ...base, upper: false, lower: false, digits: false, symbols: false })).toBe(0);
  });
});
