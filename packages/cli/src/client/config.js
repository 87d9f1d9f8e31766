import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { agentPaths, privateFolder } from '../shared/agent-paths.js';
import { CommandError } from './agent-client.js';

/**
 * The command line's settings (`lockit config`), in the state folder's `config.json` (0600):
 * choices, nothing secret. Each setting has a fixed set of values and a default.
 */
export const SETTINGS = /** @type {const} */ ({
  'git.store': {
    values: ['ask', 'always', 'never'],
    fallback: 'ask',
    about:
      'what git\'s "store" does with a credential Lockit does not hold: ask on the terminal (none: nothing saved), always save, never save',
  },
  'git.erase': {
    values: ['never', 'trash'],
    fallback: 'never',
    about: 'what git\'s "erase" (a refused credential) does: nothing, or move the one login holding exactly it to Trash',
  },
});

/** @typedef {keyof typeof SETTINGS} SettingName */

const file = () => join(agentPaths().stateDir, 'config.json');

/** @returns {Promise<Record<string, string>>} */
async function readAll() {
  try {
    const saved = JSON.parse(await readFile(file(), 'utf8'));
    return typeof saved === 'object' && saved !== null ? saved : {};
  } catch {
    return {};
  }
}

/**
 * A setting's value: the saved one when it is still one of its values, else its default.
 *
 * @param {SettingName} name
 * @returns {Promise<string>}
 */
export async function setting(name) {
  const saved = (await readAll())[name];
  const { values, fallback } = SETTINGS[name];
  return /** @type {readonly string[]} */ (values).includes(saved ?? '') ? /** @type {string} */ (saved) : fallback;
}

/**
 * @param {string} name
 * @returns {SettingName}
 */
export function settingName(name) {
  if (!(name in SETTINGS))
    throw new CommandError('usage', `No setting "${name}". Settings: ${Object.keys(SETTINGS).join(', ')}.`);
  return /** @type {SettingName} */ (name);
}

/**
 * Saves a setting (written whole and renamed, 0600); a value it does not take is refused.
 *
 * @param {string} typed
 * @param {string} value
 */
export async function saveSetting(typed, value) {
  const name = settingName(typed);
  const { values } = SETTINGS[name];
  if (!(/** @type {readonly string[]} */ (values).includes(value)))
    throw new CommandError('usage', `${name} is one of: ${values.join(', ')}.`);
  const all = { ...(await readAll()), [name]: value };
  await privateFolder(agentPaths().stateDir);
  const temporary = `${file()}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
  await rename(temporary, file());
}
