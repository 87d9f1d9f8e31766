import { CommandError } from './agent-client.js';
import { readStdin } from './prompt.js';

/**
 * git's credential helper protocol (git-credential(1)): git writes `key=value` lines and a blank
 * line on standard input; for `get` the helper answers `username=` and `password=` lines, or
 * nothing to let git ask elsewhere. `store` and `erase` are accepted and change nothing: Lockit
 * writes only through the vault's own write path (not in this command line yet).
 *
 * @param {string} operation
 * @param {import('./session-commands.js').Ask} agent
 */
export async function answerGitCredential(operation, agent) {
  if (!['get', 'store', 'erase'].includes(operation)) throw new CommandError('usage', 'The operation is get, store or erase.');
  /** @type {Record<string, string>} */
  const attributes = {};
  for (const line of (await readStdin()).split('\n')) {
    if (line === '') break;
    const eq = line.indexOf('=');
    if (eq > 0) attributes[line.slice(0, eq)] = line.slice(eq + 1);
  }
  if (operation !== 'get') return;
  const answer = await agent('credential', {
    protocol: attributes['protocol'],
    host: attributes['host'],
    path: attributes['path'],
    username: attributes['username'],
  });
  if (!answer.found) return;
  if (/[\n\0]/.test(answer.username + answer.password))
    throw new CommandError('error', 'That login holds a line break; git cannot take it.');
  process.stdout.write(`username=${answer.username}\npassword=${answer.password}\n`);
}
