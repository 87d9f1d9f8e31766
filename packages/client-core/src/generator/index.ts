/** The password generator's pure part (decision 0031), shared by the web app and the command line. */
export * from './generator-settings';
export {
  alphabetsOf,
  CHARACTER_SETS,
  generatePassword,
  GeneratorOptionsError,
  LOOK_ALIKES,
  passwordEntropyBits,
  passwordOptionsProblem,
  type CharacterClass,
} from './password';
export { generatePassphrase, passphraseEntropyBits } from './passphrase';
export { EFF_WORDLIST_SIZE, parseWordlist } from './wordlist';
