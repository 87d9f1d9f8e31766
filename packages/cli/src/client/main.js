import { Command, CommanderError } from 'commander';
import { agentPaths } from '../shared/agent-paths.js';
import { EXIT } from '../shared/exit-codes.js';
import { ask, CommandError } from './agent-client.js';
import { addConfigCommand } from './config-command.js';
import { addDataCommands } from './data-commands.js';
import { addSecretCommands } from './secret-commands.js';
import { addSessionCommands } from './session-commands.js';
import { addWriteCommands } from './write-commands.js';
import { addSshCommands } from './ssh-commands.js';

/**
 * The `lockit` command line (docs/cli.md). This thin client loads no schema, no route table and
 * no crypto: it parses the command line, asks the agent over its socket and prints the answer,
 * so a command starts about as fast as Node itself (decision 0068).
 *
 * @param {string[]} argv
 * @returns {Promise<number>} the exit code
 */
export async function main(argv) {
  const paths = agentPaths();
  /** @type {(command: string, args?: Record<string, unknown>, options?: { start?: boolean }) => Promise<any>} */
  const agent = (command, args, options) => ask(paths, command, args, options);
  const program = new Command('lockit')
    .description('Lockit from the terminal: read and change your vault, inject secrets, answer git.')
    .version('0.1.0')
    .enablePositionalOptions()
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) });
  addSessionCommands(program, agent);
  addDataCommands(program, agent);
  addWriteCommands(program, agent);
  addSecretCommands(program, agent);
  addConfigCommand(program);
  addSshCommands(program, agent);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return process.exitCode === undefined ? EXIT.ok : Number(process.exitCode);
  } catch (error) {
    return report(error, argv.includes('--json'));
  }
}

/**
 * @param {unknown} error
 * @param {boolean} json
 */
function report(error, json) {
  if (error instanceof CommanderError) {
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help')
      return EXIT.ok;
    return EXIT.usage;
  }
  if (error instanceof CommandError) {
    if (json)
      process.stderr.write(
        `${JSON.stringify({ error: { code: error.code, message: error.message, [error.code === 'conflict' ? 'current' : 'matches']: error.data } })}\n`,
      );
    else process.stderr.write(`lockit: ${error.message}\n`);
    return EXIT[error.code] ?? EXIT.error;
  }
  process.stderr.write(`lockit: ${error instanceof Error ? error.message : String(error)}\n`);
  return EXIT.error;
}
