import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Option } from 'commander';
import { agentPaths } from '../shared/agent-paths.js';
import { CommandError } from './agent-client.js';
import { jsonOption, print } from './output.js';

/** @typedef {(command: string, args?: Record<string, unknown>, options?: { start?: boolean }) => Promise<any>} Ask */

/**
 * Lines of standard input, read once: `--password-stdin` takes the first as the master password
 * and, if the account asks for a second factor, the next as the code.
 */
function stdinLines() {
  /** @type {Promise<string[]> | null} */
  let lines = null;
  let next = 0;
  return async () => {
    lines ??= import('./prompt.js').then(({ readStdin }) => readStdin()).then((text) => text.split(/\r?\n/));
    return (await lines)[next++] ?? '';
  };
}

/** @param {string} minutes */
function idleSeconds(minutes) {
  const value = Number(minutes);
  if (!Number.isFinite(value) || value < 0) throw new CommandError('usage', '--idle-lock takes minutes (0: never).');
  return Math.round(value * 60);
}

/**
 * login, unlock, lock, logout, status.
 *
 * @param {import('commander').Command} program
 * @param {Ask} agent
 */
export function addSessionCommands(program, agent) {
  /** The terminal prompts, loaded by the commands that ask. */
  const prompt = () => import('./prompt.js');
  program
    .command('login')
    .description('sign in to a Lockit server; starts the agent that holds your keys in memory')
    .argument('[username]', 'your user name (asked for when left out)')
    .option('-s, --server <url>', 'the server address, e.g. https://vault.example.com (default: the last one used)')
    .option('--password-stdin', 'read the master password (and then a second-factor code) from standard input')
    .option('--recovery', 'answer the second factor with a recovery code rather than an authenticator code')
    .addOption(new Option('--idle-lock <minutes>', 'lock the vault after this many idle minutes (0: never)').default('15'))
    .addOption(jsonOption())
    .action(async (typedName, options) => {
      const remembered = await lastLogin();
      const server = options.server ?? remembered?.server;
      if (!server) throw new CommandError('usage', 'Which server? Pass --server https://your-lockit-server');
      const username =
        typedName ?? (options.passwordStdin ? remembered?.username : await (await prompt()).readLine('User name: '));
      if (!username) throw new CommandError('usage', 'Which user name? Pass it after login.');
      const nextLine = stdinLines();
      const password = options.passwordStdin ? await nextLine() : await (await prompt()).readSecret('Master password: ');
      if (password === '') throw new CommandError('usage', 'The master password is empty.');
      let answer = await agent(
        'login',
        { server, username, password, idleLockSeconds: idleSeconds(options.idleLock) },
        { start: true },
      );
      if (answer.secondFactor) {
        const method = options.recovery ? 'recovery' : 'totp';
        if (!answer.secondFactor.includes(method)) {
          throw new CommandError(
            'usage',
            `This account does not take a ${method === 'totp' ? 'TOTP' : 'recovery'} code here (it takes: ${answer.secondFactor.join(', ')}).`,
          );
        }
        const question = method === 'totp' ? 'Authenticator code: ' : 'Recovery code: ';
        const code = options.passwordStdin ? await nextLine() : await (await prompt()).readSecret(question);
        answer = await agent('second-factor', { method, code });
      }
      print(answer, options.json, (data) => {
        const left = data.recoveryCodesLeft === undefined ? '' : ` ${data.recoveryCodesLeft} recovery codes left.`;
        return `Signed in to ${data.server} as ${data.username}.${left}\n`;
      });
    });

  program
    .command('unlock')
    .description('unlock the vault of the live session with your master password')
    .option('--password-stdin', 'read the master password from standard input')
    .addOption(jsonOption())
    .action(async (options) => {
      const status = await agent('status');
      if (!status.signedIn) throw new CommandError('loggedOut', 'Not signed in. Run: lockit login');
      const password = options.passwordStdin ? await stdinLines()() : await (await prompt()).readSecret('Master password: ');
      const answer = await agent('unlock', { password });
      print(answer, options.json, () => 'Unlocked.\n');
    });

  program
    .command('lock')
    .description('forget the vault keys now; the session stays (lockit unlock opens it again)')
    .addOption(jsonOption())
    .action(async (options) => {
      const answer = await agent('lock');
      print(answer, options.json, () => 'Locked.\n');
    });

  program
    .command('logout')
    .description('end this device session on the server and stop the agent')
    .addOption(jsonOption())
    .action(async (options) => {
      const answer = await agent('logout');
      print(answer, options.json, () => 'Signed out.\n');
    });

  program
    .command('status')
    .description('say whether you are signed in and the vault is unlocked (exit 0 unlocked, 5 locked, 6 signed out)')
    .addOption(jsonOption())
    .action(async (options) => {
      /** @type {any} */
      let status;
      try {
        status = await agent('status');
      } catch (error) {
        if (!(error instanceof CommandError) || error.code !== 'loggedOut') throw error;
        status = { signedIn: false, locked: false, server: null, username: null };
      }
      print(status, options.json, (data) =>
        !data.signedIn
          ? 'Signed out.\n'
          : `Signed in to ${data.server} as ${data.username}; the vault is ${data.locked ? 'locked' : 'unlocked'}.\n`,
      );
      process.exitCode = !status.signedIn ? 6 : status.locked ? 5 : 0;
    });
}

/** The server and user name of the last login (not secret), if any. */
async function lastLogin() {
  try {
    const saved = JSON.parse(await readFile(join(agentPaths().stateDir, 'login.json'), 'utf8'));
    return { server: String(saved.server ?? ''), username: String(saved.username ?? '') };
  } catch {
    return null;
  }
}
