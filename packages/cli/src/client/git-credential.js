import { CommandError } from './agent-client.js';
import { readStdin } from './prompt.js';

/**
 * git's credential helper protocol (git-credential(1)): git writes `key=value` lines and a blank
 * line on standard input; for `get` the helper answers `username=` and `password=` lines, or
 * nothing to let git ask elsewhere; `store` and `erase` answer nothing.
 *
 * `store` (the credential worked) saves it as `git.store` says: `ask` (the default) asks on the
 * terminal and saves nothing when there is none, since git runs helpers without one in scripts
 * and CI; `always` saves without asking (as git-credential-manager and the keychain helpers
 * do); `never`. A login that already holds that password is left alone, so the `store` git
 * sends after Lockit's own answer writes nothing.
 *
 * `erase` (the server refused the credential) changes nothing unless `git.erase` is `trash`.
 * git calls erase on every helper whenever a server answers 401, for whatever reason: a token
 * the server revoked, an expired session, a server misconfigured for a moment, or a credential
 * another helper gave. A vault item is more than git's copy of it (notes, a TOTP seed, history),
 * and the vault is the source of truth, not git; deleting it on git's word would lose it
 * silently. With `trash` only the one login holding exactly that user name and password goes to
 * Trash, where it stays 30 days.
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
  const credential = {
    protocol: attributes['protocol'],
    host: attributes['host'],
    path: attributes['path'],
    username: attributes['username'],
  };
  if (operation === 'store') return store({ ...credential, password: attributes['password'] }, agent);
  if (operation === 'erase') return erase({ ...credential, password: attributes['password'] }, agent);
  const answer = await agent('credential', credential);
  if (!answer.found) return;
  if (/[\n\0]/.test(answer.username + answer.password))
    throw new CommandError('error', 'That login holds a line break; git cannot take it.');
  process.stdout.write(`username=${answer.username}\npassword=${answer.password}\n`);
}

/** @typedef {{ protocol?: string, host?: string, path?: string, username?: string, password?: string }} GitCredential */

/**
 * @param {GitCredential} credential
 * @param {import('./session-commands.js').Ask} agent
 */
async function store(credential, agent) {
  const { setting } = await import('./config.js');
  const mode = await setting('git.store');
  if (mode === 'never' || !credential.username || !credential.password || !credential.host) return;
  const plan = await agent('credential-store', { ...credential, apply: false });
  if (plan.action === 'none') return;
  if (mode === 'ask') {
    const where = `${credential.protocol}://${credential.host}${credential.path ? `/${credential.path}` : ''}`;
    const question =
      plan.action === 'add'
        ? `lockit: save the login ${credential.username} for ${where} in your vault? [y/N] `
        : `lockit: save the new password of ${credential.username} in "${plan.name}"? [y/N] `;
    if (!(await confirm(question))) return;
  }
  const done = await agent('credential-store', { ...credential, apply: true });
  if (done.action !== 'none') process.stderr.write(`lockit: saved in "${done.name}".\n`);
}

/**
 * @param {GitCredential} credential
 * @param {import('./session-commands.js').Ask} agent
 */
async function erase(credential, agent) {
  const { setting } = await import('./config.js');
  if ((await setting('git.erase')) !== 'trash' || !credential.username || !credential.password || !credential.host) return;
  const done = await agent('credential-erase', credential);
  if (done.action === 'trash') process.stderr.write(`lockit: the server refused it; moved "${done.name}" to Trash.\n`);
}

/**
 * Asks on the terminal itself (git holds standard input); without one, says how to save anyway.
 *
 * @param {string} question
 */
async function confirm(question) {
  const { readLine } = await import('./prompt.js');
  try {
    return /^y(es)?$/i.test(await readLine(question));
  } catch {
    process.stderr.write(
      'lockit: not saved (no terminal to ask). To save new git logins without asking: lockit config set git.store always\n',
    );
    return false;
  }
}
