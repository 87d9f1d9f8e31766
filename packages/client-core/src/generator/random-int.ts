/**
 * Unbiased random integers from the browser's CSPRNG (crypto.getRandomValues), the only
 * source of randomness of the generator.
 *
 * Security invariant: every value in [0, n) is exactly equally likely. A 32-bit draw is
 * taken modulo n only when it falls below the largest multiple of n that fits in 2^32;
 * draws at or above it are thrown away and drawn again (rejection sampling), so no value
 * gets the extra chance `x % n` alone would give the smallest ones.
 */
const POOL_SIZE = 256;
const pool = new Uint32Array(POOL_SIZE);
let next = POOL_SIZE;

function draw(): number {
  if (next === POOL_SIZE) {
    globalThis.crypto.getRandomValues(pool);
    next = 0;
  }
  const value = pool[next]!;
  pool[next++] = 0;
  return value;
}

const RANGE = 2 ** 32;

/** A uniform integer in [0, n), for 1 <= n <= 2^32. */
export function randomInt(n: number): number {
  if (!Number.isInteger(n) || n < 1 || n > RANGE) throw new RangeError('randomInt needs a whole number from 1 to 2^32.');
  const limit = RANGE - (RANGE % n);
  for (;;) {
    const value = draw();
    if (value < limit) return value % n;
  }
}

/** Shuffles `items` in place (Fisher-Yates with randomInt): every order equally likely. */
export function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

/** One uniformly chosen character of `alphabet`. */
export const randomCharOf = (alphabet: string): string => alphabet[randomInt(alphabet.length)]!;
