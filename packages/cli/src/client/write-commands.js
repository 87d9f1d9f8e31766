import { Option } from 'commander';
import { CommandError } from './agent-client.js';
import { generatorOptionsOf, withGeneratorOptions } from './generator-options.js';
import { jsonOption, print } from './output.js';

/** @typedef {import('./session-commands.js').Ask} Ask */

/**
 * The secrets a command asks for on the terminal when none come from standard input or the
 * generator. Secrets never come from the command line: arguments are in the shell's history and
 * in every process listing.
 *
 * @type {Record<string, string[]>}
 */
const ASKED = { login: ['password'], card: ['number', 'code'] };

/** @type {Record<string, string>} */
const QUESTIONS = { password: 'Password', number: 'Card number', code: 'Security code' };

/** @param {string} value @param {string[] | undefined} previous */
const collect = (value, previous) => [...(previous ?? []), value];

/** @param {string} value @param {Record<string, string> | undefined} previous */
function collectIdentity(value, previous) {
  const eq = value.indexOf('=');
  if (eq <= 0) throw new CommandError('usage', `--identity takes FIELD=VALUE (e.g. firstName=Ada), not "${value}".`);
  return { ...previous, [value.slice(0, eq)]: value.slice(eq + 1) };
}

/**
 * The item's parts a command changes, common to add and edit.
 *
 * @param {import('commander').Command} command
 */
function withItemOptions(command) {
  return command
    .option('-n, --name <name>', 'the name')
    .option('-u, --username <name>', "a login's user name")
    .option('--url <address>', "a login's web address (repeat for several; replaces them on edit)", collect)
    .option('-f, --folder <name>', 'the folder, by name (made when missing)')
    .option('--tag <tag>', 'a tag (repeat for several; replaces them on edit)', collect)
    .option('--notes <text>', 'the notes (a secure note: --stdin keeps them out of your shell history)')
    .option('--holder <name>', "a card's holder")
    .option('--brand <brand>', "a card's brand")
    .option('--exp-month <mm>', "a card's expiry month")
    .option('--exp-year <yyyy>', "a card's expiry year")
    .option(
      '--identity <field=value>',
      'an identity part: title, firstName, lastName, email, phone, company, address1, city, …',
      collectIdentity,
    )
    .option(
      '--stdin',
      "read the secrets from standard input, one a line: a login's password; a card's number, then code; an identity's ssn, passport, license; a note's whole text",
    )
    .option('--password-stdin', "read a login's password from standard input (its first line)")
    .option('-g, --generate', "give a login a new password from the generator (the options below; lockit generate's defaults)");
}

/**
 * What the agent is asked to change, from the parsed options. Secrets are read here: from
 * standard input (--stdin), or asked on the terminal without echo; never from an argument.
 *
 * @param {string | undefined} type the item's type when known (add); undefined on edit
 * @param {import('commander').Command} command
 * @param {{ editing: boolean }} how
 */
async function changesOf(type, command, { editing }) {
  // Only what was typed: commander gives --no-folder's and --no-favorite's pairs a default.
  /** @type {Record<string, any>} */
  const options = Object.fromEntries(
    Object.entries(command.opts()).filter(([key]) => command.getOptionValueSource(key) !== 'default'),
  );
  const card = { holder: options.holder, brand: options.brand, expMonth: options.expMonth, expYear: options.expYear };
  const changes = {
    name: options.name,
    username: options.username,
    urls: options.url,
    folder: options.folder === false ? '' : options.folder,
    tags: options.tag,
    notes: options.notes,
    favorite: options.favorite,
    card: Object.values(card).some((value) => value !== undefined) ? card : undefined,
    identity: options.identity,
    ...(await secretsOf(type, options, editing)),
    generate: options.generate ? generatorOptionsOf(options) : undefined,
    revision: options.revision,
  };
  return changes;
}

/**
 * The secrets as the agent takes them: `stdin`, standard input as it is (the agent reads it by
 * the item's type: a login's password on the first line; a card's number, then code; an
 * identity's ssn, passport, license; a note's whole text), or `secrets` asked on the terminal.
 *
 * @param {string | undefined} type
 * @param {Record<string, any>} options
 * @param {boolean} editing
 * @returns {Promise<{ stdin?: string, secrets?: Record<string, string> }>}
 */
async function secretsOf(type, options, editing) {
  if (options.stdin && options.passwordStdin) throw new CommandError('usage', 'Give --stdin or --password-stdin, not both.');
  if (options.stdin || options.passwordStdin) {
    if (options.passwordStdin && type !== undefined && type !== 'login')
      throw new CommandError('usage', '--password-stdin is for a login; use --stdin.');
    const { readStdin } = await import('./prompt.js');
    return { stdin: await readStdin() };
  }
  const asked = editing ? (options.askPassword ? ['password'] : []) : options.generate ? [] : (ASKED[type ?? 'login'] ?? []);
  if (asked.length === 0) return {};
  if (!process.stdin.isTTY) {
    const what = asked.map((name) => QUESTIONS[name]?.toLowerCase()).join(' and ');
    throw new CommandError(
      'usage',
      `No terminal to ask for the ${what}: pass ${asked.length > 1 ? 'them' : 'it'} on standard input with --stdin${type === 'login' ? ' (or --password-stdin), or use --generate' : ''}.`,
    );
  }
  const { readSecret } = await import('./prompt.js');
  /** @type {Record<string, string>} */
  const secrets = {};
  for (const name of asked) secrets[name] = await readSecret(`${QUESTIONS[name]} (empty for none): `);
  return { secrets };
}

/** @param {any} data */
const written = (data) => `${data.name} (${data.id}, revision ${data.revision})`;

/** @param {string} value */
function revisionOf(value) {
  const revision = Number(value);
  if (!Number.isInteger(revision) || revision < 1) throw new CommandError('usage', '--revision is a whole number from 1.');
  return revision;
}

/**
 * add, edit, rm, restore: every write goes through the agent, which seals and sends it with the
 * client core (the web app's write path, its revisions and whole-vault state).
 *
 * @param {import('commander').Command} program
 * @param {Ask} agent
 */
export function addWriteCommands(program, agent) {
  withGeneratorOptions(
    withItemOptions(
      program
        .command('add')
        .description('add an item; its secrets come from standard input (--stdin), the generator or a prompt without echo')
        .addOption(
          new Option('-t, --type <type>', 'the kind of item').choices(['login', 'note', 'card', 'identity']).default('login'),
        )
        .option('--favorite', 'mark it a favourite'),
    ),
  )
    .addOption(jsonOption())
    .action(async (options, command) => {
      const answer = await agent('add', { type: options.type, ...(await changesOf(options.type, command, { editing: false })) });
      print(answer, options.json, (data) => `Added ${written(data)}.\n`);
    });

  withGeneratorOptions(
    withItemOptions(
      program
        .command('edit')
        .description('change the parts of an item given as options; the rest is kept')
        .argument('<item>', 'the item: its id, its exact name, or words that find only it')
        .option('--ask-password', "ask for a login's new password on the terminal, without echo")
        .option('--no-folder', 'take it out of its folder')
        .option('--favorite', 'mark it a favourite')
        .option('--no-favorite', 'no longer a favourite')
        .option('--revision <n>', 'save only if the item is still at this revision (as `get --json` showed it)', revisionOf),
    ),
  )
    .addOption(jsonOption())
    .action(async (item, options, command) => {
      const answer = await agent('edit', { item, ...(await changesOf(undefined, command, { editing: true })) });
      print(answer, options.json, (data) => `Saved ${written(data)}.\n`);
    });

  program
    .command('rm')
    .description('move an item to Trash (the web app keeps it there 30 days); --permanent deletes one already in Trash')
    .argument('<item>', 'the item: its id, its exact name, or words that find only it')
    .option('--permanent', 'delete for good an item that is already in Trash')
    .option('--revision <n>', 'only if the item is still at this revision', revisionOf)
    .addOption(jsonOption())
    .action(async (item, options) => {
      const answer = await agent('rm', { item, permanent: options.permanent === true, revision: options.revision });
      print(answer, options.json, (data) =>
        data.purged ? `Deleted ${data.id} for good.\n` : `Moved ${written(data)} to Trash.\n`,
      );
    });

  program
    .command('restore')
    .description('bring an item back from Trash')
    .argument('<item>', 'the item in Trash: its id, its exact name, or words that find only it')
    .addOption(jsonOption())
    .action(async (item, options) => {
      print(await agent('restore', { item }), options.json, (data) => `Restored ${written(data)}.\n`);
    });
}
