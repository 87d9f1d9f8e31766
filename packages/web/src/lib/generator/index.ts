export {
  DEFAULT_GENERATOR_SETTINGS,
  generatorSettingsSchema,
  GeneratorOptionsError,
  generatePassphrase,
  generatePassword,
  LOOK_ALIKES,
  passphraseEntropyBits,
  passphraseOptionsSchema,
  PASSPHRASE_WORDS,
  passwordEntropyBits,
  passwordOptionsProblem,
  passwordOptionsSchema,
  PASSWORD_LENGTH,
  SEPARATORS,
  type GeneratorMode,
  type GeneratorSettings,
  type PassphraseOptions,
  type PasswordOptions,
} from '@lockit/client-core';
export { loadWordlist, EFF_WORDLIST_SIZE } from './wordlist';
export { generate, entropyBits, settingsProblem } from './generate';
export * from './generator-history';
