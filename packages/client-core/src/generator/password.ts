import { randomCharOf, shuffle } from './random-int';
import type { PasswordOptions } from './generator-settings';

export const CHARACTER_SETS = {
  upper: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  lower: 'abcdefghijklmnopqrstuvwxyz',
  digits: '0123456789',
  symbols: '!@#$%^&*()-_=+[]{};:,.<>?/~',
} as const;
export type CharacterClass = keyof typeof CHARACTER_SETS;
const CLASSES: readonly CharacterClass[] = ['upper', 'lower', 'digits', 'symbols'];

/** Characters read as one another in many fonts (I, l, 1 and O, 0); left out on request. */
export const LOOK_ALIKES = 'IlO01';

/** A password the options cannot make (e.g. minimums longer than the password). */
export class GeneratorOptionsError extends Error {
  override readonly name = 'GeneratorOptionsError';
}

/** The alphabet of each chosen class, look-alikes removed when asked. */
export function alphabetsOf(options: PasswordOptions): Partial<Record<CharacterClass, string>> {
  const alphabets: Partial<Record<CharacterClass, string>> = {};
  for (const name of CLASSES) {
    if (!options[name]) continue;
    const all: string = CHARACTER_SETS[name];
    alphabets[name] = options.avoidAmbiguous ? [...all].filter((c) => !LOOK_ALIKES.includes(c)).join('') : all;
  }
  return alphabets;
}

/** How many characters of each chosen class every password has at least: one, or the minimum asked. */
export function requiredCounts(options: PasswordOptions): Partial<Record<CharacterClass, number>> {
  const counts: Partial<Record<CharacterClass, number>> = {};
  if (options.upper) counts.upper = 1;
  if (options.lower) counts.lower = 1;
  if (options.digits) counts.digits = Math.max(1, options.minDigits);
  if (options.symbols) counts.symbols = Math.max(1, options.minSymbols);
  return counts;
}

const sum = (values: Iterable<number>) => [...values].reduce((a, b) => a + b, 0);

/** Why the options make no password, in words; null when they are fine. */
export function passwordOptionsProblem(options: PasswordOptions): string | null {
  if (!CLASSES.some((name) => options[name])) return 'Choose at least one kind of character.';
  const required = sum(Object.values(requiredCounts(options)));
  if (required > options.length) {
    return `The minimums need ${required} characters: make the password at least that long, or lower them.`;
  }
  return null;
}

/**
 * A random password: first the required characters of each chosen class (so every class and
 * minimum is present), the rest from all chosen classes together, then the whole shuffled
 * (Fisher-Yates), so no position tells which class it came from. Every character is drawn
 * with randomInt: uniform, no modulo bias. Throws GeneratorOptionsError for options that
 * make no password.
 */
export function generatePassword(options: PasswordOptions): string {
  const problem = passwordOptionsProblem(options);
  if (problem) throw new GeneratorOptionsError(problem);
  const alphabets = alphabetsOf(options);
  const pool = Object.values(alphabets).join('');
  const characters: string[] = [];
  for (const [name, count] of Object.entries(requiredCounts(options)) as Array<[CharacterClass, number]>) {
    for (let i = 0; i < count; i++) characters.push(randomCharOf(alphabets[name]!));
  }
  while (characters.length < options.length) characters.push(randomCharOf(pool));
  return shuffle(characters).join('');
}

/**
 * Entropy in bits, counted from below: each required character adds log2 of its class's
 * size, each other character log2 of the whole pool's; the shuffle's choice of positions
 * adds more, which is not counted. Never more than length x log2(pool).
 */
export function passwordEntropyBits(options: PasswordOptions): number {
  if (passwordOptionsProblem(options)) return 0;
  const alphabets = alphabetsOf(options);
  const pool = sum(Object.values(alphabets).map((alphabet) => alphabet.length));
  const counts = Object.entries(requiredCounts(options)) as Array<[CharacterClass, number]>;
  const required = sum(counts.map(([, count]) => count));
  const requiredBits = sum(counts.map(([name, count]) => count * Math.log2(alphabets[name]!.length)));
  return requiredBits + (options.length - required) * Math.log2(pool);
}
