import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import {
  DEFAULT_GENERATOR_SETTINGS,
  generatePassphrase,
  generatePassword,
  parseWordlist,
  passphraseEntropyBits,
  passphraseOptionsSchema,
  passwordEntropyBits,
  passwordOptionsProblem,
  passwordOptionsSchema,
} from '@lockit/client-core';
import { AgentError } from './agent-error';

let wordlist: Promise<string[]> | null = null;

/** The EFF wordlist, the client core's file, read from disk once per agent. */
function loadWordlist(): Promise<string[]> {
  const path = createRequire(import.meta.url).resolve('@lockit/client-core/eff-large-wordlist.txt');
  wordlist ??= readFile(path, 'utf8').then(parseWordlist);
  return wordlist;
}

/**
 * A password or passphrase with the web app's generator and its options (decision 0031): the
 * defaults are the web app's, every option is checked against the same schema and bounds, and
 * the answer says its entropy. Nothing is kept: the command line has no generator history yet.
 */
export async function generateSecret(
  args: Record<string, unknown>,
): Promise<{ value: string; entropyBits: number; mode: string }> {
  const given = (name: string, fallback: unknown) => (args[name] === undefined ? fallback : args[name]);
  if (args['passphrase'] === true) {
    const defaults = DEFAULT_GENERATOR_SETTINGS.passphrase;
    const parsed = passphraseOptionsSchema.safeParse({
      words: Number(given('words', defaults.words)),
      separator: given('separator', defaults.separator),
      capitalise: given('capitalise', defaults.capitalise),
      includeNumber: given('number', defaults.includeNumber),
    });
    if (!parsed.success)
      throw new AgentError(
        'usage',
        `Those passphrase options do not work: ${parsed.error.issues[0]?.path.join('.')} ${parsed.error.issues[0]?.message}.`,
      );
    return {
      mode: 'passphrase',
      value: generatePassphrase(parsed.data, await loadWordlist()),
      entropyBits: passphraseEntropyBits(parsed.data),
    };
  }
  const defaults = DEFAULT_GENERATOR_SETTINGS.password;
  const parsed = passwordOptionsSchema.safeParse({
    length: Number(given('length', defaults.length)),
    upper: given('upper', defaults.upper),
    lower: given('lower', defaults.lower),
    digits: given('digits', defaults.digits),
    symbols: given('symbols', defaults.symbols),
    minDigits: Number(given('minDigits', defaults.minDigits)),
    minSymbols: Number(given('minSymbols', defaults.minSymbols)),
    avoidAmbiguous: given('avoidAmbiguous', defaults.avoidAmbiguous),
  });
  if (!parsed.success)
    throw new AgentError(
      'usage',
      `Those password options do not work: ${parsed.error.issues[0]?.path.join('.')} ${parsed.error.issues[0]?.message}.`,
    );
  const problem = passwordOptionsProblem(parsed.data);
  if (problem) throw new AgentError('usage', problem);
  return { mode: 'password', value: generatePassword(parsed.data), entropyBits: passwordEntropyBits(parsed.data) };
}
