import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFile } from 'node:fs/promises';
import { totpCode, parseTotpSeed } from '@lockit/client-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { databaseKind, type CliHome } from './support/cli-against-server';
import { useCliServer } from './support/use-cli-server';

const suite = useCliServer();

const SEED = 'JBSWY3DPEHPK3PXP';

let cli: CliHome;
let ids: Map<string, string>;

beforeAll(async () => {
  ({ cli, ids } = await suite.signedIn([
    {
      serviceName: 'GitHub',
      username: 'octo',
      password: 'gh-secret-1',
      urls: ['https://github.com/acme'],
      totp: SEED,
      tags: ['dev'],
      folder: 'Work',
    },
    { serviceName: 'Mail', username: 'me@mail.test', password: 'mail-pw-2', urls: ['https://mail.test'] },
    { serviceName: 'Mail Backup', username: 'backup@mail.test', password: 'mail-pw-3' },
    {
      serviceName: 'Database',
      username: 'dba',
      password: 'db-pass',
      folder: 'Work/Servers',
      fields: [{ id: 'f1', label: 'api key', kind: 'hidden', value: 'db-api-key' }],
    },
    {
      serviceName: 'Visa',
      type: 'card',
      card: { holder: 'A Person', brand: 'Visa', number: '4111111111111111', code: '123', expMonth: '12', expYear: '2030' },
    },
  ]));
});

describe(`lockit's data commands on a seeded vault (${databaseKind})`, () => {
  it('lists the items with no secret, and as JSON', async () => {
    const list = await cli.run(['list']);
    expect(list.code).toBe(0);
    expect(
      list.stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => line.split('\t')[1]),
    ).toEqual(['Database', 'GitHub', 'Mail', 'Mail Backup', 'Visa']);
    for (const secret of ['gh-secret-1', 'mail-pw-2', 'db-pass', '4111111111111111']) expect(list.stdout).not.toContain(secret);
    const json = JSON.parse((await cli.run(['list', '--json'])).stdout) as Array<{
      id: string;
      name: string;
      folder: string | null;
    }>;
    expect(json.find((item) => item.name === 'GitHub')).toMatchObject({ id: ids.get('GitHub'), folder: 'Work' });
  });

  it('filters by type, folder (and the folders under it) and tag', async () => {
    const names = async (args: string[]) =>
      (JSON.parse((await cli.run([...args, '--json'])).stdout) as Array<{ name: string }>).map((item) => item.name);
    expect(await names(['list', '--type', 'card'])).toEqual(['Visa']);
    expect(await names(['list', '--folder', 'Work'])).toEqual(['Database', 'GitHub']);
    expect(await names(['list', '--folder', 'Work/Servers'])).toEqual(['Database']);
    expect(await names(['list', '--tag', 'dev'])).toEqual(['GitHub']);
    expect(await names(['search', 'mail'])).toEqual(['Mail', 'Mail Backup']);
    expect(await names(['search', 'mail', '--folder', 'Work'])).toEqual([]);
  });

  it('gets a field by id, by exact name and by a unique search; every field without one', async () => {
    expect((await cli.run(['get', ids.get('GitHub')!, 'password'])).stdout).toBe('gh-secret-1\n');
    expect((await cli.run(['get', 'mail', 'password'])).stdout).toBe('mail-pw-2\n');
    expect((await cli.run(['get', 'backup', 'username'])).stdout).toBe('backup@mail.test\n');
    expect((await cli.run(['get', 'Database', 'API Key'])).stdout).toBe('db-api-key\n');
    expect((await cli.run(['get', 'Visa', 'number'])).stdout).toBe('4111111111111111\n');
    const all = JSON.parse((await cli.run(['get', 'GitHub', '--json'])).stdout) as { fields: Record<string, string> };
    expect(all.fields).toMatchObject({ username: 'octo', password: 'gh-secret-1', url: 'https://github.com/acme' });
  });

  it('lists the matches of an ambiguous item and exits 4; an unknown one or field exits 3', async () => {
    const ambiguous = await cli.run(['get', 'mail.test', 'password']);
    expect(ambiguous.code).toBe(4);
    expect(ambiguous.stdout).toBe('');
    expect(ambiguous.stderr).toContain(ids.get('Mail')!);
    expect(ambiguous.stderr).toContain(ids.get('Mail Backup')!);
    const json = await cli.run(['get', 'mail.test', 'password', '--json']);
    expect(JSON.parse(json.stderr).error.matches).toHaveLength(2);
    expect((await cli.run(['get', 'nothing like it', 'password'])).code).toBe(3);
    const field = await cli.run(['get', 'GitHub', 'pin']);
    expect(field.code).toBe(3);
    expect(field.stderr).toContain('It has:');
  });

  it("prints the item's current TOTP code", async () => {
    const before = Date.now();
    const totp = await cli.run(['totp', 'GitHub', '--json']);
    const after = Date.now();
    const { code, remaining } = JSON.parse(totp.stdout) as { code: string; remaining: number };
    const seed = parseTotpSeed(SEED);
    expect([totpCode(seed, before), totpCode(seed, after)]).toContain(code);
    expect(remaining).toBeGreaterThan(0);
    expect((await cli.run(['totp', 'Mail'])).code).toBe(3);
  });

  it("generates passwords and passphrases with the web app's options, and refuses options that make none", async () => {
    const password = JSON.parse((await cli.run(['generate', '--length', '32', '--no-symbols', '--json'])).stdout) as {
      value: string;
      entropyBits: number;
    };
    expect(password.value).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(password.entropyBits).toBeGreaterThan(180);
    const plain = await cli.run(['generate', '--avoid-ambiguous', '--length', '64']);
    expect(plain.stdout.trim()).toHaveLength(64);
    expect(plain.stdout.trim()).not.toMatch(/[IlO01]/);
    const phrase = (
      await cli.run(['generate', '--passphrase', '--words', '6', '--separator', '.', '--no-number', '--no-capitalise'])
    ).stdout.trim();
    const { parseWordlist } = await import('@lockit/client-core');
    const { createRequire } = await import('node:module');
    const { readFile } = await import('node:fs/promises');
    const words = new Set(
      parseWordlist(await readFile(createRequire(import.meta.url).resolve('@lockit/client-core/eff-large-wordlist.txt'), 'utf8')),
    );
    expect(phrase.split('.')).toHaveLength(6);
    for (const word of phrase.split('.')) expect(words.has(word), word).toBe(true);
    const tooShort = await cli.run(['generate', '--length', '4']);
    expect(tooShort.code).toBe(2);
    expect(tooShort.stdout).toBe('');
    expect((await cli.run(['generate', '--no-upper', '--no-lower', '--no-digits', '--no-symbols'])).code).toBe(2);
  });

  it('syncs and says what it holds', async () => {
    const sync = await cli.run(['sync', '--json']);
    expect(sync.code).toBe(0);
    expect(JSON.parse(sync.stdout)).toEqual({ items: 5, folders: 2 });
  });

  it('answers usage errors with exit 2 and help on every command', async () => {
    expect((await cli.run(['get'])).code).toBe(2);
    expect((await cli.run(['frobnicate'])).code).toBe(2);
    for (const command of ['login', 'list', 'search', 'get', 'totp', 'read', 'run', 'inject', 'credential', 'completion']) {
      const help = await cli.run([command, '--help']);
      expect(help.code, command).toBe(0);
      expect(help.stdout, command).toContain(`Usage: lockit ${command}`);
    }
  });

  it('prints bash and zsh completion scripts naming the commands', async () => {
    const bash = await cli.run(['completion', 'bash']);
    expect(bash.stdout).toContain('complete -o default -F _lockit lockit');
    expect(bash.stdout).toContain('inject');
    const zsh = await cli.run(['completion', 'zsh']);
    expect(zsh.stdout).toContain('#compdef lockit');
    expect(zsh.stdout).toContain("'totp:");
  });
});

describe(`secret references, run and inject (${databaseKind})`, () => {
  it('reads a reference by folder path, by item alone and by id', async () => {
    expect((await cli.run(['read', 'lockit://Work/GitHub/password'])).stdout).toBe('gh-secret-1\n');
    expect((await cli.run(['read', 'lockit://Work/Servers/Database/api%20key'])).stdout).toBe('db-api-key\n');
    expect((await cli.run(['read', `lockit://${ids.get('Mail')}/username`])).stdout).toBe('me@mail.test\n');
    expect((await cli.run(['read', 'lockit://Personal/GitHub/password'])).code).toBe(3);
    expect((await cli.run(['read', 'lockit://GitHub'])).code).toBe(2);
  });

  it('runs a child with the referenced secret in its environment and masks it in its output', async () => {
    const run = await cli.run(
      ['run', '--', process.execPath, '-e', 'console.log("token=" + process.env.GH); console.error(process.env.GH)'],
      {
        env: { GH: 'lockit://Work/GitHub/password' },
      },
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('token=<concealed by lockit>\n');
    expect(run.stderr).toBe('<concealed by lockit>\n');
    expect(run.stdout + run.stderr).not.toContain('gh-secret-1');
  });

  it('gives the child the value (proved by its digest), passes its exit code, and leaves other output alone', async () => {
    const script =
      'const h = require("node:crypto").createHash("sha256").update(process.env.DB).digest("hex"); console.log(h); process.exit(3)';
    const run = await cli.run(['run', '--', process.execPath, '-e', script], { env: { DB: 'lockit://Database/password' } });
    const { createHash } = await import('node:crypto');
    expect(run.stdout).toBe(`${createHash('sha256').update('db-pass').digest('hex')}\n`);
    expect(run.code).toBe(3);
  });

  it('writes an injected template 0600 with every reference replaced', async () => {
    const template = join(cli.stateDir, '..', 'app.env.tpl');
    const out = join(cli.stateDir, '..', 'app.env');
    await writeFile(out, 'old', { mode: 0o644 });
    await writeFile(template, 'GH={{ lockit://Work/GitHub/password }}\nDB={{lockit://Database/password}}\nPLAIN=1\n');
    const inject = await cli.run(['inject', '-i', template, '-o', out]);
    expect(inject.code).toBe(0);
    const { readFile } = await import('node:fs/promises');
    expect(await readFile(out, 'utf8')).toBe('GH=gh-secret-1\nDB=db-pass\nPLAIN=1\n');
    expect((await stat(out)).mode & 0o777).toBe(0o600);
    const piped = await cli.run(['inject'], { input: 'A={{ lockit://Mail/password }}\n' });
    expect(piped.stdout).toBe('A=mail-pw-2\n');
    const missing = await cli.run(['inject', '-o', out], { input: 'X={{ lockit://Nope/password }}\n' });
    expect(missing.code).toBe(3);
    expect(await readFile(out, 'utf8')).toBe('GH=gh-secret-1\nDB=db-pass\nPLAIN=1\n');
    // A name with a space needs no escaping inside the braces.
    const spaced = await cli.run(['inject'], { input: 'B={{ lockit://Mail Backup/password }}\n' });
    expect(spaced.stdout).toBe('B=mail-pw-3\n');
    // A reference left open is refused, not copied as is into a file that looks written.
    const open = await cli.run(['inject', '-o', out], { input: 'X={{ lockit://Mail/password\n}}\n' });
    expect(open.code).toBe(2);
    expect(open.stderr).toContain('not closed on its line');
    expect(await readFile(out, 'utf8')).toBe('GH=gh-secret-1\nDB=db-pass\nPLAIN=1\n');
  });
});
