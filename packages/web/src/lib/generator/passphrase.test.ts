import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import {
  DEFAULT_GENERATOR_SETTINGS,
  generatePassphrase,
  passphraseEntropyBits,
  PASSPHRASE_WORDS,
  SEPARATORS,
} from '@lockit/client-core';
import { EFF_WORDLIST_SIZE, loadWordlist, parseWordlist } from './wordlist';
import { entropyBits, generate } from './generate';

const WORDLIST_SHA256 = 'addd35536511597a02fa0a9ff1e5284677b8883b83e986e43f15a3db996b903e';
// The list is the client core's file (its package export), as the app loads it.
const HERE = dirname(createRequire(import.meta.url).resolve('@lockit/client-core/eff-large-wordlist.txt'));
const text = readFileSync(join(HERE, 'eff-large-wordlist.txt'), 'utf8');
const plain = { words: 6, separator: '-' as const, capitalise: false, includeNumber: false };

describe('the EFF large wordlist', () => {
  it('is the published file, byte for byte (SHA-256), with its licence beside it', () => {
    expect(createHash('sha256').update(text).digest('hex')).toBe(WORDLIST_SHA256);
    expect(readFileSync(join(HERE, 'eff-large-wordlist.LICENSE.md'), 'utf8')).toContain('CC BY 3.0 US');
  });

  it('has 7,776 distinct words, the first "abacus" and the last "zoom"', async () => {
    const words = parseWordlist(text);
    expect(words).toHaveLength(7776);
    expect(EFF_WORDLIST_SIZE).toBe(7776);
    expect([words[0], words.at(-1)]).toEqual(['abacus', 'zoom']);
    expect(await loadWordlist()).toEqual(words);
  });

  it('refuses a damaged list instead of making weaker passphrases', () => {
    expect(() => parseWordlist(text.split('\n').slice(1).join('\n'))).toThrow('7776 distinct words');
    expect(() => parseWordlist(text.replace('11111\tabacus', '11111 abacus'))).toThrow('malformed');
  });
});

describe('generatePassphrase', () => {
  const words = parseWordlist(text);

  it('makes 3 to 20 words of the list, joined by the separator', () => {
    for (let count = PASSPHRASE_WORDS.min; count <= PASSPHRASE_WORDS.max; count++) {
      const phrase = generatePassphrase({ ...plain, words: count, separator: '.' }, words);
      const parts = phrase.split('.');
      expect(parts).toHaveLength(count);
      expect(parts.every((part) => words.includes(part))).toBe(true);
    }
  });

  it('uses every separator as chosen', () => {
    for (const separator of SEPARATORS.filter((s) => s !== '')) {
      expect(generatePassphrase({ ...plain, separator }, words).split(separator).length).toBeGreaterThanOrEqual(6);
    }
    expect(generatePassphrase({ ...plain, separator: '' }, words)).toMatch(/^[a-z-]+$/);
  });

  it('capitalises each word when asked', () => {
    const parts = generatePassphrase({ ...plain, separator: ' ', capitalise: true }, words).split(' ');
    expect(parts.every((part) => /^[A-Z]/.test(part) && words.includes(part.toLowerCase()))).toBe(true);
  });

  it('adds one digit to one word when asked', () => {
    for (let i = 0; i < 200; i++) {
      const parts = generatePassphrase({ ...plain, separator: ' ', includeNumber: true }, words).split(' ');
      const withDigit = parts.filter((part) => /\d$/.test(part));
      expect(withDigit).toHaveLength(1);
      expect(words).toContain(withDigit[0]!.slice(0, -1));
    }
  });

  it('draws words uniformly: chi-square over the first die (six sixths of the list), 6,000 words', () => {
    const sixths = new Array<number>(6).fill(0);
    for (let i = 0; i < 1_000; i++) {
      for (const word of generatePassphrase({ ...plain, separator: ' ' }, words).split(' ')) {
        sixths[Math.floor(words.indexOf(word) / 1296)]!++;
      }
    }
    const statistic = sixths.reduce((sum, n) => sum + (n - 1000) ** 2 / 1000, 0);
    // chi2.ppf(0.999, 5)
    expect(statistic).toBeLessThan(20.515);
  });
});

describe('passphraseEntropyBits', () => {
  it('is words x log2(7776), plus log2(10) + log2(words) for the number; capitals and separator add nothing', () => {
    expect(passphraseEntropyBits(plain)).toBeCloseTo(6 * Math.log2(7776), 10);
    expect(passphraseEntropyBits({ ...plain, capitalise: true, separator: '_' })).toBeCloseTo(6 * Math.log2(7776), 10);
    expect(passphraseEntropyBits({ ...plain, includeNumber: true })).toBeCloseTo(
      6 * Math.log2(7776) + Math.log2(10) + Math.log2(6),
      10,
    );
    expect(passphraseEntropyBits({ ...plain, words: 3 })).toBeCloseTo(38.77, 2);
  });
});

describe('generate', () => {
  it('makes a password or a passphrase as the settings say, with their entropy', async () => {
    const password = await generate(DEFAULT_GENERATOR_SETTINGS);
    expect(password).toHaveLength(20);
    const phrase = await generate({ ...DEFAULT_GENERATOR_SETTINGS, mode: 'passphrase' });
    expect(phrase.split('-').length).toBeGreaterThanOrEqual(5);
    expect(entropyBits({ ...DEFAULT_GENERATOR_SETTINGS, mode: 'passphrase' })).toBeCloseTo(
      5 * Math.log2(7776) + Math.log2(10) + Math.log2(5),
      10,
    );
  });
});
