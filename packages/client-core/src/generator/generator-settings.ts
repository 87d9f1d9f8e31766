import { z } from 'zod';

/** The bounds the issue sets: passwords of 5-128 characters, passphrases of 3-20 words. */
export const PASSWORD_LENGTH = { min: 5, max: 128 } as const;
export const PASSPHRASE_WORDS = { min: 3, max: 20 } as const;
/** Separators a passphrase may use; the empty one glues words together. */
export const SEPARATORS = ['-', ' ', '.', '_', ',', ''] as const;

export const passwordOptionsSchema = z.strictObject({
  length: z.number().int().min(PASSWORD_LENGTH.min).max(PASSWORD_LENGTH.max),
  upper: z.boolean(),
  lower: z.boolean(),
  digits: z.boolean(),
  symbols: z.boolean(),
  minDigits: z.number().int().min(0).max(PASSWORD_LENGTH.max),
  minSymbols: z.number().int().min(0).max(PASSWORD_LENGTH.max),
  avoidAmbiguous: z.boolean(),
});
export type PasswordOptions = z.infer<typeof passwordOptionsSchema>;

export const passphraseOptionsSchema = z.strictObject({
  words: z.number().int().min(PASSPHRASE_WORDS.min).max(PASSPHRASE_WORDS.max),
  separator: z.enum(SEPARATORS),
  capitalise: z.boolean(),
  includeNumber: z.boolean(),
});
export type PassphraseOptions = z.infer<typeof passphraseOptionsSchema>;

/** What the 'generator-settings' account document (or, signed out, this browser) keeps. */
export const generatorSettingsSchema = z.strictObject({
  v: z.literal(1),
  mode: z.enum(['password', 'passphrase']),
  password: passwordOptionsSchema,
  passphrase: passphraseOptionsSchema,
});
export type GeneratorSettings = z.infer<typeof generatorSettingsSchema>;
export type GeneratorMode = GeneratorSettings['mode'];

/** 20 characters of all four kinds (about 128 bits); 5 words with a number (about 68 bits). */
export const DEFAULT_GENERATOR_SETTINGS: GeneratorSettings = {
  v: 1,
  mode: 'password',
  password: {
    length: 20,
    upper: true,
    lower: true,
    digits: true,
    symbols: true,
    minDigits: 1,
    minSymbols: 1,
    avoidAmbiguous: false,
  },
  passphrase: { words: 5, separator: '-', capitalise: true, includeNumber: true },
};
