import { isRef, TEMPLATE_REF } from '../shared/refs.js';
import { CommandError } from './agent-client.js';
import { jsonOption, print } from './output.js';

// What only one command needs is loaded by that command: every module loaded at start is paid
// by every command (decision 0068).

/** @typedef {import('./session-commands.js').Ask} Ask */

/**
 * read, run, inject, credential, completion.
 *
 * @param {import('commander').Command} program
 * @param {Ask} agent
 */
export function addSecretCommands(program, agent) {
  program
    .command('read')
    .description('print the value a secret reference names')
    .argument('<reference>', 'lockit://FOLDER/ITEM/FIELD or lockit://ITEM/FIELD (ITEM: a name or an id)')
    .addOption(jsonOption())
    .action(async (ref, options) => {
      const { values } = await agent('read', { refs: [ref] });
      print({ value: values[0] }, options.json, (data) => `${data.value}\n`);
    });

  program
    .command('run')
    .description('run a command with the environment variables that hold lockit:// references resolved, for it only')
    .argument('<command...>', 'the command and its arguments (after --)')
    .option('--no-masking', 'leave the secrets in its output (by default they are replaced)')
    .passThroughOptions()
    .action(async (/** @type {string[]} */ command, options) => {
      const names = Object.keys(process.env).filter((name) => isRef(process.env[name] ?? ''));
      const refs = names.map((name) => /** @type {string} */ (process.env[name]));
      const { values } = refs.length === 0 ? { values: [] } : await agent('read', { refs });
      const env = { ...process.env };
      names.forEach((name, i) => (env[name] = values[i]));
      process.exitCode = await runChild(command, env, options.masking ? values : []);
    });

  program
    .command('inject')
    .description('copy a template with every {{ lockit://… }} replaced by its value')
    .option('-i, --in-file <path>', 'the template (default: standard input)')
    .option('-o, --out-file <path>', 'where to write (mode 0600; default: standard output)')
    .action(async (options) => {
      const { readFile } = await import('node:fs/promises');
      const { readStdin } = await import('./prompt.js');
      const template = options.inFile ? await readFile(options.inFile, 'utf8') : await readStdin({ raw: true });
      // A reference the pattern cannot read (split over lines, unclosed) would be copied as is:
      // a file that looks written but holds no secret. Nothing is written instead.
      const unread = template.replace(TEMPLATE_REF, '').match(/\{\{[ \t]*lockit:\/\/[^\n]{0,60}/);
      if (unread) throw new CommandError('usage', `The template has a reference that is not closed on its line: ${unread[0]}`);
      const refs = [...new Set([...template.matchAll(TEMPLATE_REF)].map((match) => /** @type {string} */ (match[1])))];
      const { values } = refs.length === 0 ? { values: [] } : await agent('read', { refs });
      const byRef = new Map(refs.map((ref, i) => [ref, values[i]]));
      const output = template.replace(TEMPLATE_REF, (_match, ref) => byRef.get(ref));
      if (!options.outFile) return void process.stdout.write(output);
      await writePrivate(options.outFile, output);
    });

  program
    .command('credential')
    .description("git's credential helper: git config credential.helper lockit")
    .argument('<operation>', 'get, store or erase (git calls these)')
    .action(async (operation) => {
      const { answerGitCredential } = await import('./git-credential.js');
      await answerGitCredential(operation, agent);
    });

  program
    .command('completion')
    .description('print a shell completion script: eval "$(lockit completion bash)"')
    .argument('<shell>', 'bash or zsh')
    .action(async (shell) => {
      const { completionScript } = await import('./completion.js');
      process.stdout.write(completionScript(shell, program));
    });
}

/**
 * Writes `text` to `path` readable by this user only: made 0600, and an existing file is set
 * to 0600 before anything secret is written into it.
 *
 * @param {string} path
 * @param {string} text
 */
async function writePrivate(path, text) {
  const { chmod, open } = await import('node:fs/promises');
  const file = await open(path, 'w', 0o600);
  try {
    await chmod(path, 0o600);
    await file.writeFile(text);
  } finally {
    await file.close();
  }
}

/**
 * @param {string[]} command
 * @param {NodeJS.ProcessEnv} env
 * @param {string[]} secrets
 * @returns {Promise<number>}
 */
async function runChild(command, env, secrets) {
  const { spawn } = await import('node:child_process');
  const { maskStream } = await import('./mask-stream.js');
  const [file, ...args] = command;
  if (!file) throw new CommandError('usage', 'Which command? lockit run -- COMMAND [ARGS]');
  const masked = secrets.length > 0;
  const child = spawn(file, args, { env, stdio: ['inherit', masked ? 'pipe' : 'inherit', masked ? 'pipe' : 'inherit'] });
  if (masked) {
    child.stdout?.pipe(maskStream(secrets)).pipe(process.stdout);
    child.stderr?.pipe(maskStream(secrets)).pipe(process.stderr);
  }
  const forward = (/** @type {NodeJS.Signals} */ signal) => child.kill(signal);
  for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) process.on(signal, forward);
  return new Promise((resolve, reject) => {
    child.once('error', (error) => reject(new CommandError('error', `Could not run ${file}: ${error.message}`)));
    child.once('close', (code, signal) => resolve(code ?? (signal ? 128 + signalNumber(signal) : 1)));
  });
}

/** @param {NodeJS.Signals} signal */
function signalNumber(signal) {
  return { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 }[/** @type {string} */ (signal)] ?? 1;
}
