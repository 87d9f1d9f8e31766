/**
 * The web app's generator options on a command (`lockit generate`, and `lockit add` / `edit`
 * with `--generate`), and the values the agent's generator reads from them.
 *
 * @param {import('commander').Command} command
 */
export function withGeneratorOptions(command) {
  return command
    .option('-l, --length <n>', 'password length, 5 to 128 (default 20)')
    .option('--no-upper', 'no capital letters')
    .option('--no-lower', 'no small letters')
    .option('--no-digits', 'no digits')
    .option('--no-symbols', 'no symbols')
    .option('--min-digits <n>', 'at least this many digits (default 1)')
    .option('--min-symbols <n>', 'at least this many symbols (default 1)')
    .option('--avoid-ambiguous', 'leave out look-alikes (I, l, 1, O, 0)')
    .option('-p, --passphrase', 'words from the EFF list rather than characters')
    .option('-w, --words <n>', 'passphrase words, 3 to 20 (default 5)')
    .option('--separator <s>', 'between words: - (default), space, ., _, , or nothing')
    .option('--no-capitalise', 'passphrase words in small letters')
    .option('--no-number', 'no digit added to a passphrase word');
}

const GENERATOR_KEYS = [
  'length',
  'upper',
  'lower',
  'digits',
  'symbols',
  'minDigits',
  'minSymbols',
  'avoidAmbiguous',
  'passphrase',
  'words',
  'separator',
  'capitalise',
  'number',
];

/**
 * The generator's options among a command's parsed options.
 *
 * @param {Record<string, unknown>} options
 */
export function generatorOptionsOf(options) {
  return Object.fromEntries(GENERATOR_KEYS.filter((key) => options[key] !== undefined).map((key) => [key, options[key]]));
}
