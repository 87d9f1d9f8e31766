export * from './generator-settings';
export { generatePassword, passwordEntropyBits, passwordOptionsProblem, GeneratorOptionsError, LOOK_ALIKES } from './password';
export { generatePassphrase, passphraseEntropyBits } from './passphrase';
export { loadWordlist, EFF_WORDLIST_SIZE } from './wordlist';
export { generate, entropyBits, settingsProblem } from './generate';
export * from './generator-history';
