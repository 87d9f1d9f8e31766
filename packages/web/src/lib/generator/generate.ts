import {
  generatePassphrase,
  generatePassword,
  passphraseEntropyBits,
  passwordEntropyBits,
  passwordOptionsProblem,
  type GeneratorSettings,
} from '@lockit/client-core';
import { loadWordlist } from './wordlist';

/** A new value for the settings: a password at once, a passphrase once the wordlist is loaded. */
export async function generate(settings: GeneratorSettings): Promise<string> {
  if (settings.mode === 'password') return generatePassword(settings.password);
  return generatePassphrase(settings.passphrase, await loadWordlist());
}

/** The entropy in bits of what `generate` makes with these settings. */
export function entropyBits(settings: GeneratorSettings): number {
  return settings.mode === 'password' ? passwordEntropyBits(settings.password) : passphraseEntropyBits(settings.passphrase);
}

/** Why the settings make nothing, or null. */
export function settingsProblem(settings: GeneratorSettings): string | null {
  return settings.mode === 'password' ? passwordOptionsProblem(settings.password) : null;
}
