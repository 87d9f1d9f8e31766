import { apiPaths, VAULT_STATE_HEADER } from '@lockit/contract';
import type { VerifiedAccount } from '@lockit/test-support';
import { beforeAll, describe, expect, it } from 'vitest';
import { databaseKind, type CliHome } from './support/cli-against-server';
import { useCliServer } from './support/use-cli-server';

const suite = useCliServer();

let holder: VerifiedAccount;
let cli: CliHome;

interface Summary {
  id: string;
  name: string;
  username: string;
  urls: string[];
  folder: string | null;
  tags: string[];
  revision: number;
  type: string;
}

beforeAll(async () => {
  // Through the lying proxy (which only records here): what the server receives can be read.
  ({ holder, cli } = await suite.signedIn(
    [
      { serviceName: 'Shop', username: 'buyer', password: 'shop-pw', urls: ['https://shop.test'], tags: ['money'] },
      { serviceName: 'Mail one', username: 'one@mail.test', password: 'mail-1' },
      { serviceName: 'Mail two', username: 'two@mail.test', password: 'mail-2' },
    ],
    { through: 'proxy' },
  ));
});

async function vault(): Promise<{ live: Summary[]; trash: Summary[] }> {
  const live = JSON.parse((await cli.run(['list', '--json'])).stdout) as Summary[];
  const trash = JSON.parse((await cli.run(['list', '--trash', '--json'])).stdout) as Summary[];
  return { live, trash };
}

const json = <T>(text: string) => JSON.parse(text) as T;

describe(`lockit add (${databaseKind})`, () => {
  it('adds a login with the password from standard input, a new folder, tags and addresses; the server sees none of it', async () => {
    const before = suite.server.proxy.recorded.length;
    const add = await cli.run(
      [
        'add',
        '--name',
        'Forge',
        '--username',
        'octo',
        '--url',
        'https://forge.test',
        '--url',
        'https://forge.test/login',
        '--folder',
        'Code',
        '--tag',
        'dev',
        '--notes',
        'forge notes',
        '--password-stdin',
        '--json',
      ],
      { input: 'forge-secret-1\n' },
    );
    expect(add.stderr).toBe('');
    expect(add.code).toBe(0);
    const written = json<{ id: string; name: string; revision: number; inTrash: boolean }>(add.stdout);
    expect(written).toMatchObject({ name: 'Forge', revision: 1, inTrash: false });
    expect((await cli.run(['get', written.id, 'password'])).stdout).toBe('forge-secret-1\n');
    expect((await cli.run(['get', 'Forge', 'notes'])).stdout).toBe('forge notes\n');
    const item = (await vault()).live.find((entry) => entry.id === written.id)!;
    expect(item).toMatchObject({ username: 'octo', folder: 'Code', tags: ['dev'] });
    expect(item.urls).toEqual(['https://forge.test', 'https://forge.test/login']);
    const sent = suite.server.proxy.recorded.slice(before).map((request) => request.body);
    expect(sent.some((body) => body.length > 0)).toBe(true);
    for (const plain of ['forge-secret-1', 'Forge', 'octo', 'forge notes', 'Code', 'forge.test'])
      for (const body of sent) expect(body).not.toContain(plain);
  });

  it('adds a login with a password from the generator and its options, printed nowhere', async () => {
    const add = await cli.run(['add', '--name', 'Generated', '--generate', '--length', '40', '--no-symbols']);
    expect(add.code).toBe(0);
    expect(add.stdout).toMatch(/^Added Generated \([0-9a-f-]{36}, revision 1\)\.\n$/);
    expect((await cli.run(['get', 'Generated', 'password'])).stdout).toMatch(/^[A-Za-z0-9]{40}\n$/);
  });

  it('adds a secure note, a card and an identity with their secrets from standard input', async () => {
    expect(
      (await cli.run(['add', '--type', 'note', '--name', 'Door', '--stdin'], { input: 'code 1234\nsecond line\n' })).code,
    ).toBe(0);
    expect((await cli.run(['get', 'Door', 'notes'])).stdout).toBe('code 1234\nsecond line\n');
    const card = await cli.run(
      ['add', '-t', 'card', '-n', 'Bank card', '--holder', 'A Person', '--exp-month', '12', '--exp-year', '2031', '--stdin'],
      {
        input: '4000123412341234\n987\n',
      },
    );
    expect(card.code).toBe(0);
    expect((await cli.run(['get', 'Bank card', 'number'])).stdout).toBe('4000123412341234\n');
    expect((await cli.run(['get', 'Bank card', 'code'])).stdout).toBe('987\n');
    expect((await cli.run(['get', 'Bank card', 'holder'])).stdout).toBe('A Person\n');
    const identity = await cli.run(
      ['add', '-t', 'identity', '-n', 'Me', '--identity', 'firstName=Ada', '--identity', 'email=ada@x.test', '--stdin'],
      {
        input: '123-45-6789\n',
      },
    );
    expect(identity.code).toBe(0);
    expect((await cli.run(['get', 'Me', 'firstName'])).stdout).toBe('Ada\n');
    expect((await cli.run(['get', 'Me', 'ssn'])).stdout).toBe('123-45-6789\n');
  });

  it('refuses bad arguments with a clear error and writes nothing', async () => {
    const before = await vault();
    const refused = async (args: string[], message: RegExp, input = '') => {
      const run = await cli.run(args, { input });
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stdout, args.join(' ')).toBe('');
      expect(run.stderr, args.join(' ')).toMatch(message);
    };
    await refused(['add', '--username', 'x', '--password-stdin'], /needs a name/, 'pw\n');
    await refused(['add', '-t', 'card', '-n', 'C', '--username', 'x', '--stdin'], /card item has no user name/, '1\n2\n');
    await refused(['add', '-t', 'card', '-n', 'C', '--exp-month', '13', '--stdin'], /expiry month/, '1\n2\n');
    await refused(['add', '-n', 'NoSecret', '--folder', 'Never made'], /No terminal to ask for the password.*--stdin/);
    await refused(['add', '-n', 'Both', '--generate', '--password-stdin'], /not both/, 'pw\n');
    await refused(['add', '-n', 'Both', '--generate', '--length', '3'], /password options|length/);
    await refused(['add', '-t', 'wallet', '-n', 'W'], /Allowed choices are login, note, card, identity/);
    // A secret on the command line is not an option at all.
    await refused(['add', '-n', 'Leak', '--password', 'hunter2'], /unknown option '--password'/);
    await refused(['add', '-n', 'Leak', '--identity', 'nonsense', '--stdin'], /FIELD=VALUE/);
    await refused(['add', '-t', 'identity', '-n', 'Leak', '--identity', 'shoeSize=44', '--stdin'], /Unknown identity part/);
    await refused(['edit', 'Shop'], /Nothing to change/);
    await refused(['edit', 'Shop', '--revision', 'zero', '--name', 'x'], /--revision is a whole number/);
    expect(await vault()).toEqual(before);
    expect((await cli.run(['list', '--folder', 'Never made', '--json'])).stdout).toBe('[]\n');
  });
});

describe(`lockit edit, rm and restore (${databaseKind})`, () => {
  it('changes only the given parts, the password from standard input, and moves between folders', async () => {
    const edit = await cli.run(['edit', 'Shop', '--username', 'buyer2', '--password-stdin', '--folder', 'Money', '--json'], {
      input: 'shop-pw-2\n',
    });
    expect(edit.code).toBe(0);
    expect(json<{ revision: number }>(edit.stdout).revision).toBe(2);
    expect((await cli.run(['get', 'Shop', 'password'])).stdout).toBe('shop-pw-2\n');
    const shop = (await vault()).live.find((entry) => entry.name === 'Shop')!;
    expect(shop).toMatchObject({ username: 'buyer2', urls: ['https://shop.test'], tags: ['money'], folder: 'Money' });
    const out = await cli.run(['edit', 'Shop', '--no-folder', '--tag', 'a', '--tag', 'b', '--json']);
    expect(json<{ revision: number }>(out.stdout).revision).toBe(3);
    expect((await vault()).live.find((entry) => entry.name === 'Shop')).toMatchObject({ folder: null, tags: ['a', 'b'] });
    expect((await cli.run(['get', 'Shop', 'password'])).stdout).toBe('shop-pw-2\n');
  });

  it('gives a new generated password on edit, and keeps a card number on an empty --stdin line', async () => {
    const before = (await cli.run(['get', 'Generated', 'password'])).stdout;
    expect((await cli.run(['edit', 'Generated', '--generate', '--passphrase', '--words', '4', '--separator', '.'])).code).toBe(0);
    const after = (await cli.run(['get', 'Generated', 'password'])).stdout.trim();
    expect(after).not.toBe(before.trim());
    expect(after.split('.')).toHaveLength(4);
    expect((await cli.run(['edit', 'Bank card', '--stdin'], { input: '\n321\n' })).code).toBe(0);
    expect((await cli.run(['get', 'Bank card', 'number'])).stdout).toBe('4000123412341234\n');
    expect((await cli.run(['get', 'Bank card', 'code'])).stdout).toBe('321\n');
  });

  it('lists the matches of an ambiguous name, exits 4 and changes nothing', async () => {
    const before = await vault();
    const edit = await cli.run(['edit', 'mail', '--username', 'x']);
    expect(edit.code).toBe(4);
    expect(edit.stderr).toContain('Mail one');
    expect(edit.stderr).toContain('Mail two');
    expect((await cli.run(['rm', 'mail'])).code).toBe(4);
    expect((await cli.run(['edit', 'no such item', '--username', 'x'])).code).toBe(3);
    expect(await vault()).toEqual(before);
  });

  it('moves to Trash, restores, and deletes for good only what is already in Trash', async () => {
    const rm = await cli.run(['rm', 'Door', '--json']);
    expect(rm.code).toBe(0);
    const trashed = json<{ id: string; inTrash: boolean }>(rm.stdout);
    expect(trashed.inTrash).toBe(true);
    expect((await cli.run(['get', 'Door', 'notes'])).code).toBe(3);
    expect((await vault()).trash.map((entry) => entry.name)).toEqual(['Door']);

    const restore = await cli.run(['restore', 'Door']);
    expect(restore.code).toBe(0);
    expect(restore.stdout).toMatch(/^Restored Door/);
    expect((await cli.run(['get', 'Door', 'notes'])).stdout).toBe('code 1234\nsecond line\n');
    const notInTrash = await cli.run(['restore', 'Door']);
    expect(notInTrash.code).toBe(2);
    expect(notInTrash.stderr).toContain('not in Trash');

    const live = await cli.run(['rm', 'Door', '--permanent']);
    expect(live.code).toBe(2);
    expect(live.stderr).toContain('not in Trash');
    expect((await cli.run(['get', 'Door', 'notes'])).code).toBe(0);

    expect((await cli.run(['rm', 'Door'])).code).toBe(0);
    const purge = await cli.run(['rm', 'Door', '--permanent', '--json']);
    expect(purge.code).toBe(0);
    expect(json<{ purged: boolean; id: string }>(purge.stdout)).toEqual({ id: trashed.id, purged: true });
    const after = await vault();
    expect(after.trash).toEqual([]);
    expect(after.live.some((entry) => entry.name === 'Door')).toBe(false);
  });

  it('meets an edit made on another device: exit 10, nothing written, their version kept', async () => {
    const other = await suite.home();
    expect((await other.login(suite.server.url, holder)).code).toBe(0);
    const read = json<{ item: { id: string; revision: number } }>((await cli.run(['get', 'Mail one', '--json'])).stdout).item;
    expect((await other.run(['edit', 'Mail one', '--username', 'theirs@mail.test'])).code).toBe(0);

    const mine = await cli.run(['edit', read.id, '--revision', String(read.revision), '--password-stdin'], { input: 'mine\n' });
    expect(mine.code).toBe(10);
    expect(mine.stderr).toContain('changed on another device');
    expect(mine.stderr).toContain('Nothing was written');
    const asJson = await cli.run(['rm', read.id, '--revision', String(read.revision), '--json']);
    expect(asJson.code).toBe(10);
    expect(json<{ error: { code: string; current: { revision: number } } }>(asJson.stderr).error).toMatchObject({
      code: 'conflict',
      current: { revision: read.revision + 1 },
    });
    expect((await cli.run(['get', 'Mail one', 'username'])).stdout).toBe('theirs@mail.test\n');
    expect((await cli.run(['get', 'Mail one', 'password'])).stdout).toBe('mail-1\n');
    // Without --revision the edit goes on top of the newest version.
    expect((await cli.run(['edit', 'Mail one', '--password-stdin'], { input: 'mine\n' })).code).toBe(0);
    expect((await other.run(['get', 'Mail one', 'password'])).stdout).toBe('mine\n');
  });

  it("leaves the vault whole: a new device's integrity check passes after every write", async () => {
    const fresh = await suite.home();
    expect((await fresh.login(suite.server.url, holder)).code).toBe(0);
    const sync = await fresh.run(['sync', '--json']);
    expect(sync.code).toBe(0);
    expect(json<{ items: number }>(sync.stdout).items).toBe((await vault()).live.length);
    const served = await holder.client.request('GET', apiPaths.listEntries);
    expect(served.status).toBe(200);
    expect(served.headers.get(VAULT_STATE_HEADER)).toBeTruthy();
  });

  it('answers help for the write commands', async () => {
    for (const command of ['add', 'edit', 'rm', 'restore', 'config']) {
      const help = await cli.run([command, '--help']);
      expect(help.code, command).toBe(0);
      expect(help.stdout, command).toContain(`Usage: lockit ${command}`);
    }
  });
});
