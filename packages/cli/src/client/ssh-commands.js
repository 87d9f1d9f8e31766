import { CommandError } from './agent-client.js';
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
      // How to ask before a key that asks is used: OpenSSH's askpass program and this shell's display.
      const answer = await agent('ssh-agent', {
        askpass: process.env['SSH_ASKPASS'] ?? '',
        display: process.env['DISPLAY'] ?? '',
        waylandDisplay: process.env['WAYLAND_DISPLAY'] ?? '',
      });
      print(answer, options.json, (data) => `SSH_AUTH_SOCK=${shellQuote(data.socket)}; export SSH_AUTH_SOCK;\n`);
    });

  program
    .command('ssh-confirm')
    .description('ask before each use of an SSH key (through SSH_ASKPASS, as ssh-add -c); lists the keys with no argument')
    .argument('[item]', 'the SSH key item (id, exact name or a unique search)')
    .option('--all', 'every SSH key of the vault, now and later')
    .option('--off', 'stop asking')
    .addOption(jsonOption())
    .action(async (item, options) => {
      if (item !== undefined && options.all) throw new CommandError('usage', 'Name one key or --all, not both.');
      if (options.off && item === undefined && !options.all) throw new CommandError('usage', '--off goes with a key or --all.');
      const answer = await agent('ssh-confirm', { item, all: options.all === true, asks: options.off !== true });
      print(answer, options.json, describeChoices);
    });
}

/** @param {{ all: boolean, keys: { id: string, name: string, fingerprint: string, asks: boolean }[] }} data */
function describeChoices(data) {
  if (data.keys.length === 0) return 'The vault holds no SSH key.\n';
  const lines = data.keys.map((key) => `${key.asks ? 'asks   ' : 'no     '} ${key.fingerprint}  ${key.name}`);
  const head = data.all ? 'Every SSH key asks before each use.' : 'Keys that ask before each use:';
  return `${head}\n${lines.join('\n')}\n`;
}

/** A path as one shell word: left bare when it is only safe characters, else in single quotes. */
function shellQuote(/** @type {string} */ path) {
  return /^[A-Za-z0-9_./-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}
