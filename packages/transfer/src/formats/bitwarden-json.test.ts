import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EXPECTED_LOGINS, loginQuadruples } from '../../test/expected-logins';
import { protectedExport } from '../../test/bitwarden-protected-export';
import { ownFixture, textFile } from '../../test/fixture-file';
import { toBitwardenJson } from '../export/bitwarden-json';
import { ImportFileError, ImportPasswordError } from '../import-format';
import { bitwardenJsonFormat } from './bitwarden-json';

const parse = (file: ReturnType<typeof textFile>, password?: string) => bitwardenJsonFormat.parse(file, { password });

describe('Bitwarden JSON (plain)', () => {
  it('yields the 12 expected logins with exact passwords and the 2 notes (bitwarden.json)', async () => {
    const result = await parse(ownFixture('twelve-bitwarden.json'));
    expect(result.items).toHaveLength(14);
    expect(loginQuadruples(result.items)).toEqual(EXPECTED_LOGINS);
    expect(
      result.items
        .filter((item) => item.type === 'note')
        .map((item) => item.name)
        .sort(),
    ).toEqual(['empty entry', 'note']);
    expect(result.items.find((item) => item.name === 'note')?.notes).toContain('\n');
    expect(result.skipped).toEqual([]);
  });

  it('keeps the two ovh.com logins apart', async () => {
    const result = await parse(ownFixture('twelve-bitwarden.json'));
    expect(result.items.filter((item) => item.name === 'hosting.test').map((item) => item.username)).toEqual(
      expect.arrayContaining(['czoczkirka', 'ktelzwcxko']),
    );
  });

  it('keeps nested folder paths and custom fields (bitwarden.json)', async () => {
    const result = await parse(ownFixture('twelve-bitwarden.json'));
    expect(new Set(result.items.map((item) => item.folder))).toContain('Emails/WS');
    expect(result.items.find((item) => item.name === 'harbor bank')?.fields).toEqual([
      { label: 'pin', kind: 'text', value: '104729' },
      { label: 'oldpin', kind: 'text', value: '130363' },
    ]);
  });

  it("reads the shape of Bitwarden's own exporter: every type, field kinds, TOTP, dates", async () => {
    const result = await parse(ownFixture('bitwarden-sdk-shape.json'));
    expect(result.items.map((item) => [item.type, item.name])).toEqual([
      ['login', 'Harbor vault'],
      ['note', 'Locker code'],
      ['card', 'Travel card'],
      ['identity', 'Kai at work'],
      ['sshKey', 'Deploy key'],
    ]);
    const [login, note, card, identity, ssh] = result.items;
    expect(loginQuadruples([login!])).toEqual([
      { name: 'Harbor vault', url: 'https://vault.harbor.test', username: 'kai@harbor.test', password: 'qwerpoiuzxcv' },
    ]);
    expect(login).toMatchObject({
      totp: 'XYZ',
      favorite: true,
      folder: 'Essentials',
      notes: 'Login note',
      createdAt: '2024-05-06T08:00:00.000Z',
    });
    expect(login?.fields).toEqual([
      { label: 'Text', kind: 'text', value: 'one' },
      { label: 'Hidden', kind: 'hidden', value: 'two' },
      { label: 'Boolean (true)', kind: 'boolean', value: 'true' },
      { label: 'Boolean (false)', kind: 'boolean', value: 'false' },
      { label: 'Linked', kind: 'text', value: 'Linked to Password' },
    ]);
    expect(note?.notes).toBe('Second drawer');
    expect(card?.card).toEqual({
      holder: 'Kai Berg',
      brand: 'Mastercard',
      number: '5555555555554444',
      code: '321',
      expMonth: '4',
      expYear: '2031',
    });
    expect(identity?.identity).toMatchObject({ title: 'Dr', firstName: 'Kai', lastName: 'Berg', company: 'Harbor' });
    expect(identity?.fields).toEqual([{ label: 'Username', kind: 'text', value: 'kberg' }]);
    // Bitwarden's SSH key (type 5) is Lockit's SSH key item: private key, public key, fingerprint.
    expect(ssh?.fields).toEqual([]);
    expect(ssh?.sshKey?.privateKey).toMatch(/^-----BEGIN OPENSSH PRIVATE KEY-----\n/);
    expect(ssh?.sshKey?.publicKey).toMatch(/^ssh-/);
    expect(ssh?.sshKey?.fingerprint).toMatch(/^SHA256:/);
  });

  it('keeps cards, identities, history, collections, multi-line notes and odd passwords (own fixture)', async () => {
    const result = await parse(ownFixture('bitwarden-everything.json'));
    const [bank, visa, me, wifi, unnamed, userOnly] = result.items;
    expect(bank).toMatchObject({
      name: 'Bank, "online"',
      password: ' a,b"c`d\\e ',
      urls: ['https://bank.example/login', 'bank.example'],
      notes: 'First line\nSecond line, with a comma\n\nFourth line',
      totp: 'otpauth://totp/Bank:ada?secret=JBSWY3DPEHPK3PXP&issuer=Bank',
      folder: 'Work/Banking/Cards',
      favorite: true,
      tags: ['Family'],
      passwordHistory: [
        { password: 'older-2', changedAt: '2024-03-01T10:00:00.000Z' },
        { password: 'older-1', changedAt: '2023-01-01T10:00:00.000Z' },
      ],
      updatedAt: '2024-04-01T10:00:00.000Z',
    });
    expect(bank?.fields.map((field) => [field.label, field.kind, field.value])).toEqual([
      ['PIN', 'hidden', '0042'],
      ['Security question', 'text', 'Blue'],
      ['Paperless', 'boolean', 'true'],
      ['Login name', 'text', 'Linked to Username'],
    ]);
    expect(visa).toMatchObject({
      type: 'card',
      folder: 'Work',
      card: { holder: 'Ada Lovelace', number: '4111111111111111', expMonth: '7' },
    });
    expect(me?.identity).toMatchObject({
      address2: 'Flat 2',
      ssn: '123-45-6789',
      passport: 'P123',
      license: 'L456',
      email: 'ada@example.com',
    });
    expect(me?.fields).toEqual([
      { label: 'Address 3', kind: 'text', value: 'Wing C' },
      { label: 'Username', kind: 'text', value: 'ada_l' },
    ]);
    expect(wifi).toMatchObject({ type: 'note', notes: 'ssid: home\npass: x,y' });
    expect(unnamed?.name).toBe('www.example.org');
    expect(userOnly?.name).toBe('only-user');
    expect(result.items).toHaveLength(6);
    expect(result.skipped.map((skip) => skip.reason)).toEqual([
      'Item 1 ("Bank, "online""): its passkey was not imported; Lockit does not hold passkeys.',
      'Item 7: it is empty (no name, no values), so there is nothing to import.',
    ]);
  });

  it("reads Lockit's own Bitwarden export back, tags included", async () => {
    const original = (await parse(ownFixture('bitwarden-everything.json'))).items.map((item) => ({
      ...item,
      tags: ['a', 'b c'],
    }));
    const again = await parse(textFile(toBitwardenJson(original), 'lockit.json'));
    expect(again.items.map((item) => item.tags)).toEqual(original.map(() => ['a', 'b c']));
    expect(again.items.map((item) => item.password)).toEqual(original.map((item) => item.password));
  });
});

describe('Bitwarden JSON (older exports)', () => {
  it('recognises and imports an export without "encrypted" whose collectionIds hold null', async () => {
    const file = ownFixture('bitwarden-old.json');
    expect(bitwardenJsonFormat.detect(file)).toBeGreaterThan(0.8);
    const { items, skipped } = await parse(file);
    expect(skipped).toEqual([]);
    expect(items).toEqual([
      expect.objectContaining({
        type: 'login',
        name: 'Forum',
        folder: 'Personal',
        favorite: true,
        notes: 'signed up in 2018',
        urls: ['https://forum.example'],
        username: 'reader',
        password: 'old"pass,1',
        totp: '',
        tags: [],
        fields: [{ label: 'Security question', kind: 'hidden', value: 'Blue' }],
      }),
      expect.objectContaining({ type: 'note', name: 'Door code', notes: '4711', folder: null, tags: [] }),
    ]);
  });
});

describe('Bitwarden JSON refuses', () => {
  it('truncated JSON, naming the line', async () => {
    const text = readFileSync(new URL('../../test/fixtures/twelve-bitwarden.json', import.meta.url), 'utf8');
    const cut = text.slice(0, 2000);
    const error = await parse(textFile(cut)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ImportFileError);
    expect((error as ImportFileError).message).toMatch(/not valid JSON/);
  });

  it('a file cut short, naming its last line', async () => {
    const text = readFileSync(new URL('../../test/fixtures/twelve-bitwarden.json', import.meta.url), 'utf8');
    const cut = text.slice(0, text.indexOf('"items"') + 20);
    const error = await parse(textFile(cut)).catch((caught: unknown) => caught);
    expect((error as ImportFileError).message).toBe(
      `Line ${cut.split('\n').length}: the file is not valid JSON (it may be cut short or edited by hand).`,
    );
    expect((error as ImportFileError).line).toBe(cut.split('\n').length);
  });

  it('an item of the wrong shape, naming the item and the key', async () => {
    const error = await parse(
      textFile(
        JSON.stringify({
          encrypted: false,
          items: [
            { type: 1, name: 'ok' },
            { type: 1, login: { password: 42 } },
          ],
        }),
      ),
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ImportFileError);
    expect((error as Error).message).toBe(
      'Item 2: its "login.password" holds the number 42 where Bitwarden writes text, so the file was changed after export or is not Bitwarden\'s. Export the vault from Bitwarden again and import that file.',
    );
  });

  it('a JSON file without items', async () => {
    await expect(parse(textFile('{"folders": []}'))).rejects.toThrow(/no "items" list/);
    await expect(parse(textFile('[1,2]'))).rejects.toThrow(/not a JSON object/);
  });

  it('an account-restricted encrypted export, saying how to export instead', async () => {
    const file = textFile(JSON.stringify({ encrypted: true, encKeyValidation_DO_NOT_EDIT: '2.a|b|c', folders: [], items: [] }));
    await expect(parse(file)).rejects.toThrow(/only that account can open/);
  });
});

describe('Bitwarden JSON (password-protected)', () => {
  const plain = readFileSync(new URL('../../test/fixtures/twelve-bitwarden.json', import.meta.url), 'utf8');

  it('opens a PBKDF2 export with its password', async () => {
    const file = textFile(await protectedExport(plain, 'correct horse €', { kdfType: 0, kdfIterations: 5000 }));
    const result = await parse(file, 'correct horse €');
    expect(loginQuadruples(result.items)).toEqual(EXPECTED_LOGINS);
  });

  it('opens an Argon2id export with its password', async () => {
    const file = textFile(await protectedExport(plain, 'pw', { kdfType: 1, kdfIterations: 2, kdfMemory: 16, kdfParallelism: 1 }));
    expect((await parse(file, 'pw')).items).toHaveLength(14);
  });

  it('asks for a password, and refuses a wrong one as a password error', async () => {
    const file = textFile(await protectedExport(plain, 'right', { kdfType: 0, kdfIterations: 5000 }));
    await expect(parse(file)).rejects.toEqual(new ImportPasswordError('missing'));
    const wrong = await parse(file, 'wrong').catch((caught: unknown) => caught);
    expect(wrong).toBeInstanceOf(ImportPasswordError);
    expect((wrong as ImportPasswordError).reason).toBe('wrong');
  });

  it('refuses changed data after the password checked out', async () => {
    const envelope = JSON.parse(await protectedExport(plain, 'pw', { kdfType: 0, kdfIterations: 5000 })) as { data: string };
    const [head, ct, mac] = envelope.data.split('|') as [string, string, string];
    envelope.data = [head, (ct[0] === 'A' ? 'B' : 'A') + ct.slice(1), mac].join('|');
    await expect(parse(textFile(JSON.stringify(envelope)), 'pw')).rejects.toThrow(/damaged: its data does not match/);
  });

  it('refuses KDF settings past the bounds before deriving anything', async () => {
    const base = {
      encrypted: true,
      passwordProtected: true,
      salt: 'c2FsdA==',
      encKeyValidation_DO_NOT_EDIT: '2.a|b|c',
      data: '2.a|b|c',
    };
    const started = performance.now();
    for (const kdf of [
      { kdfType: 0, kdfIterations: 2_000_001 },
      { kdfType: 0, kdfIterations: 4999 },
      { kdfType: 1, kdfIterations: 3, kdfMemory: 1025, kdfParallelism: 4 },
      { kdfType: 1, kdfIterations: 11, kdfMemory: 64, kdfParallelism: 4 },
      { kdfType: 1, kdfIterations: 3, kdfMemory: 64, kdfParallelism: 17 },
    ]) {
      await expect(parse(textFile(JSON.stringify({ ...base, ...kdf })), 'pw')).rejects.toThrow(
        /outside the range Bitwarden itself uses/,
      );
    }
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe('Bitwarden JSON detection', () => {
  it('is certain of its own files and not of others', () => {
    expect(bitwardenJsonFormat.detect(ownFixture('twelve-bitwarden.json'))).toBeGreaterThan(0.9);
    expect(bitwardenJsonFormat.detect(ownFixture('bitwarden-sdk-shape.json'))).toBeGreaterThan(0.9);
    expect(bitwardenJsonFormat.detect(ownFixture('twelve-bitwarden.csv'))).toBe(0);
  });
});
