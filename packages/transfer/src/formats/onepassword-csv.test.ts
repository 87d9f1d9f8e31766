import { describe, expect, it } from 'vitest';
import { EXPECTED_LOGINS, loginQuadruples } from '../../test/expected-logins';
import { ownFixture, textFile } from '../../test/fixture-file';
import { ImportFileError } from '../import-format';
import { onePasswordCsvFormat } from './onepassword-csv';

describe('1Password CSV', () => {
  it('yields the 12 expected logins with exact passwords from a 1Password 8 export; the note stays a note', async () => {
    const file = ownFixture('twelve-1password.csv');
    expect(onePasswordCsvFormat.detect(file)).toBe(1);
    const result = await onePasswordCsvFormat.parse(file, {});
    expect(loginQuadruples(result.items)).toEqual(EXPECTED_LOGINS);
    expect(result.items.filter((item) => item.type === 'note').map((item) => item.name)).toEqual(['note']);
    expect(result.skipped.map((record) => record.reason)).toEqual([
      expect.stringContaining('"empty entry" has nothing in it but its name'),
    ]);
  });

  it('reads TOTP, favourites, tags, archive and multi-line notes of a 1Password 8 export', async () => {
    const { items, skipped } = await onePasswordCsvFormat.parse(ownFixture('onepassword8-own.csv'), {});
    expect(items[0]).toMatchObject({
      password: 'p,w"`\\ 1',
      totp: 'otpauth://totp/Shop?secret=JBSWY3DPEHPK3PXP',
      favorite: true,
      tags: ['shopping', 'personal'],
      notes: 'two\nlines',
    });
    expect(items[1]?.tags).toEqual(['1Password archive']);
    expect(skipped.map((record) => record.line)).toEqual([5]);
  });

  it('reads a 1Password 7 Windows export (58-style upper-case columns, SECTION columns, emoji): a login, an identity, a card and a note', async () => {
    const file = ownFixture('onepassword7-windows.csv');
    expect(onePasswordCsvFormat.detect(file)).toBe(1);
    const { items, skipped } = await onePasswordCsvFormat.parse(file, {});
    expect(skipped).toEqual([]);
    expect(items.map((item) => [item.type, item.name])).toEqual([
      ['login', 'Harbor Account'],
      ['identity', "Kai's identity"],
      ['card', 'travel card'],
      ['note', '🎉 Welcome aboard!'],
    ]);
    const [account, identity, card, welcome] = items;
    expect([account?.urls, account?.username, account?.password, account?.tags]).toEqual([
      ['https://my.harbor.test'],
      'kai@harbor.test',
      'the harbor password',
      ['Starter Kit'],
    ]);
    expect(account?.fields).toEqual([
      { label: 'Secret key', kind: 'hidden', value: 'the harbor secret key' },
      { label: 'Account key', kind: 'hidden', value: 'B7-MADEUP-KEY000-11111-22222-33333-44444' },
    ]);
    expect(identity?.identity).toMatchObject({
      firstName: 'Kai',
      middleName: 'O',
      lastName: 'Berg',
      company: 'Harbor',
      address1: '1 quay road harbor town',
      phone: '5550100',
      email: 'kai@harbor.test',
    });
    expect(identity?.fields).toContainEqual({ label: 'Job title', kind: 'text', value: 'harbour pilot' });
    expect(identity?.fields).toContainEqual({ label: 'Username', kind: 'text', value: 'kaiB' });
    expect(card?.card).toEqual({
      holder: 'K Berg',
      brand: '',
      number: '5555555555554444',
      code: '321',
      expMonth: '03',
      expYear: '2029',
    });
    expect(card?.fields).toEqual([{ label: 'Label', kind: 'text', value: 'lost card line' }]);
    expect(welcome?.fields).toContainEqual({
      label: 'Contact us',
      kind: 'text',
      value: 'https://help.harbor.test/contact/',
    });
  });

  it('keeps a 1Password 7 section field labelled "constructor" as a field, never as a card or identity key', async () => {
    const file = textFile(
      '"UUID","TITLE","USERNAME","PASSWORD","URL","NOTES","SECTION 1: x","x 1: CARDHOLDER NAME","x 1: constructor","x 1: toString"\n' +
        '"u1","Card","","","","","","Ann","value one","value two"',
    );
    const { items } = await onePasswordCsvFormat.parse(file, {});
    expect(items[0]?.card).toEqual({ holder: 'Ann', brand: '', number: '', code: '', expMonth: '', expYear: '' });
    expect(items[0]?.fields).toEqual([
      { label: 'Constructor', kind: 'text', value: 'value one' },
      { label: 'Tostring', kind: 'text', value: 'value two' },
    ]);
  });

  it('reads a 1Password 7 Mac export (backslash-escaped quotes): a login, an identity, a card and a note', async () => {
    const file = ownFixture('onepassword7-mac.csv');
    expect(onePasswordCsvFormat.detect(file)).toBeGreaterThan(0.9);
    const { items, skipped } = await onePasswordCsvFormat.parse(file, {});
    expect(skipped).toEqual([]);
    const [login, identity, card, note] = items;
    expect(items).toHaveLength(4);
    expect(login).toMatchObject({
      type: 'login',
      name: 'Forum',
      username: 'ana',
      password: 'p"w,1',
      urls: ['https://forum.example'],
      notes: 'line one\nsaid "hi", twice',
      totp: 'otpauth://totp/Forum?secret=JBSWY3DPEHPK3PXP',
      tags: ['social', 'old'],
      createdAt: '2020-09-13T12:26:40.000Z',
      updatedAt: '2020-09-13T12:28:20.000Z',
      fields: [],
    });
    expect(identity).toMatchObject({
      type: 'identity',
      name: 'Me',
      identity: expect.objectContaining({
        firstName: 'Ana',
        middleName: 'B',
        lastName: 'Cruz',
        company: 'Example Ltd',
        email: 'ana@example.org',
        phone: '8005550100',
      }),
      fields: [
        { label: 'address', kind: 'text', value: 'Main St 1\nTown ST 12345\nUnited States' },
        { label: 'username', kind: 'text', value: 'anac' },
      ],
    });
    expect(card).toMatchObject({
      type: 'card',
      name: 'Visa',
      notes: 'backup card',
      card: { holder: 'Ana Cruz', brand: '', number: '4111111111111111', code: '111', expMonth: '01', expYear: '2030' },
      fields: [],
    });
    expect(note).toMatchObject({ type: 'note', name: 'Door', notes: '4711', fields: [] });
  });

  it('reads a 1Password 7 export of identities only, which has no user name or password column', async () => {
    const file = textFile(
      '"Created Date","first name(firstname)","last name(lastname)","Modified Date","Notes","Title","Type"\n' +
        '"1600000000","Ana","Cruz","1600000000","","Me","Identity"\n',
    );
    const { items } = await onePasswordCsvFormat.parse(file, {});
    expect(items).toMatchObject([
      { type: 'identity', name: 'Me', identity: expect.objectContaining({ firstName: 'Ana', lastName: 'Cruz' }), fields: [] },
    ]);
    const windows = textFile(
      '"UUID","TITLE","NOTES","SECTION 1: x","x 1: FIRST NAME","x 1: LAST NAME"\n"u1","Me","","","Ana","Cruz"\n',
    );
    expect((await onePasswordCsvFormat.parse(windows, {})).items[0]).toMatchObject({
      type: 'identity',
      identity: expect.objectContaining({ firstName: 'Ana', lastName: 'Cruz' }),
    });
  });

  it('refuses a file without its columns', async () => {
    await expect(onePasswordCsvFormat.parse(textFile('Name,Url\nx,y\n'), {})).rejects.toThrow(ImportFileError);
  });
});
