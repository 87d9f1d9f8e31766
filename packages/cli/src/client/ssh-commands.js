import { jsonOption, print } from './output.js';

/** @typedef {(command: string, args?: Record<string, unknown>, options?: { start?: boolean }) => Promise<any>} Ask */

/**
 * `lockit ssh-agent`: has the running agent serve the vault's SSH keys on its own socket and
 * prints the line a shell evaluates to use it (`eval "$(lockit ssh-agent)"`), as ssh-agent does.
 *
 * @param {import('commander').Command} program
 * @param {Ask} agent
 */
export function addSshCommands(program, agent) {
  program
    .command('ssh-agent')
    .description('serve the vault SSH keys to ssh while unlocked; prints SSH_AUTH_SOCK for: eval "$(lockit ssh-agent)"')
    .addOption(jsonOption())
    .action(async (options) => {
      const answer = await agent('ssh-agent');
      print(answer, options.json, (data) => `SSH_AUTH_SOCK=${shellQuote(data.socket)}; export SSH_AUTH_SOCK;\n`);
    });
}

/** A path as one shell word: left bare when it is only safe characters, else in single quotes. */
function shellQuote(/** @type {string} */ path) {
  return /^[A-Za-z0-9_./-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}
