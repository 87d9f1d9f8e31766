import { Option } from 'commander';

/** --json, offered on every data command. */
export const jsonOption = () => new Option('--json', 'print the answer as JSON');

/**
 * @param {unknown} data
 * @param {boolean | undefined} json
 * @param {(data: any) => string} text
 */
export function print(data, json, text) {
  process.stdout.write(json ? `${JSON.stringify(data, null, 2)}\n` : text(data));
}
