import { withGeneratorOptions } from './generator-options.js';
import { jsonOption, print } from './output.js';

/** @typedef {import('./session-commands.js').Ask} Ask */

/** @param {import('commander').Command} command */
const withFilters = (command) =>
  command
    .option('-t, --type <type>', 'only items of this type (login, card, identity, note)')
    .option('-f, --folder <name>', 'only items in this folder (or a folder under it)')
    .option('--tag <tag>', 'only items with this tag')
    .option('--trash', 'the items in Trash instead of the live ones');

/** @param {{ type?: string, folder?: string, tag?: string, trash?: boolean }} options */
const filtersOf = ({ type, folder, tag, trash }) => ({ type, folder, tag, trash: trash === true });

/** @param {any[]} items */
function table(items) {
  if (items.length === 0) return 'No items.\n';
  return `${items
    .map((item) => [item.id, item.name, item.username, item.folder ?? ''].join('\t').replace(/\t+$/, ''))
    .join('\n')}\n`;
}

/**
 * sync, list, search, get, totp.
 *
 * @param {import('commander').Command} program
 * @param {Ask} agent
 */
export function addDataCommands(program, agent) {
  program
    .command('sync')
    .description('fetch the vault from the server and check it')
    .addOption(jsonOption())
    .action(async (options) => {
      const answer = await agent('sync');
      print(answer, options.json, (data) => `Synced: ${data.items} items, ${data.folders} folders.\n`);
    });

  withFilters(program.command('list').description('list the items (id, name, user name, folder; no secrets)'))
    .addOption(jsonOption())
    .action(async (options) => {
      print(await agent('list', filtersOf(options)), options.json, table);
    });

  withFilters(
    program
      .command('search')
      .description('search names, user names, addresses, tags and folders')
      .argument('<query>', 'words to find'),
  )
    .addOption(jsonOption())
    .action(async (query, options) => {
      print(await agent('search', { query, ...filtersOf(options) }), options.json, table);
    });

  program
    .command('get')
    .description('print one field of an item (default: every field)')
    .argument('<item>', 'the item: its id, its exact name, or words that find only it')
    .argument('[field]', 'password, username, url, notes, totp, name, id, a card or identity part, or a custom field label')
    .addOption(jsonOption())
    .action(async (item, field, options) => {
      const answer = await agent('get', { item, field });
      print(answer, options.json, (data) =>
        field !== undefined
          ? `${data.value}\n`
          : `${Object.entries(data.fields)
              .map(([name, value]) => `${name}: ${value}`)
              .join('\n')}\n`,
      );
    });

  withGeneratorOptions(
    program
      .command('generate')
      .description("make a password or passphrase with the web app's generator (starts the agent if needed)"),
  )
    .addOption(jsonOption())
    .action(async (options) => {
      const { json, ...given } = options;
      const answer = await agent('generate', given, { start: true });
      print(answer, json, (data) => `${data.value}\n`);
    });

  program
    .command('totp')
    .description("print an item's current TOTP code")
    .argument('<item>', 'the item: its id, its exact name, or words that find only it')
    .addOption(jsonOption())
    .action(async (item, options) => {
      print(await agent('totp', { item }), options.json, (data) => `${data.code}\n`);
    });
}
