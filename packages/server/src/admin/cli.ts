import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { ConfigError } from '../config/load-config';
import { CLI_HELP } from './cli-output';
import { CommandError, runCommand, UsageError, type CliIo } from './cli-commands';

/**
 * lockit-admin (`npm run admin -- <command>`): the operator's commands, on the server's own
 * configuration and database. Output never holds vault content; every action is logged as
 * one JSON line on stderr (the server's format), never a token or a secret.
 */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        email: { type: 'string' },
        origin: { type: 'string' },
        yes: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    io.err(`${error instanceof Error ? error.message : String(error)}\nRun \`npm run admin -- help\` for the commands.`);
    return 2;
  }
  const [command, ...rest] = parsed.positionals;
  if (command === undefined || command === 'help' || parsed.values.help) {
    io.out(CLI_HELP);
    return command === undefined && !parsed.values.help ? 2 : 0;
  }
  try {
    await runCommand(command, rest, parsed.values, io);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`${error.message}\nRun \`npm run admin -- help\` for the commands.`);
      return 2;
    }
    io.err(
      error instanceof ConfigError || error instanceof CommandError ? error.message : `lockit-admin failed: ${describe(error)}`,
    );
    return 1;
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const io: CliIo = {
    out: (text) => process.stdout.write(`${text}\n`),
    err: (text) => process.stderr.write(`${text}\n`),
    env: process.env,
  };
  main(process.argv.slice(2), io).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`lockit-admin failed: ${describe(error)}\n`);
      process.exitCode = 1;
    },
  );
}
