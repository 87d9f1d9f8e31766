import { describe, expect, it } from 'vitest';
import { EXPECTED_LOGINS, loginQuadruples } from '../../test/expected-logins';
import { ownFixture, textFile } from '../../test/fixture-file';
import { ImportFileError } from '../import-format';
import { lastpassCsvFormat } from './lastpass-csv';

describe('LastPass CSV', () => {
  it('yields the 12 expected logins with exact passwords and backslash-nested folders; the note stays a note', async () => {
    const file = ownFixture('twelve-lastpass.csv');
    expect(lastpassCsvFormat.detect(file)).toBe(1);
    const result = await lastpassCsvFormat.parse(file, {});
    expect(loginQuadruples(result.items)).toEqual(EXPECTED_LOGINS);
    expect(result.items.find((item) => item.name === 'mira@pinemail.test')?.folder).toBe('Emails/WS');
    expect(result.items.filter((item) => item.type === 'note').map((item) => item.name)).toEqual(['note']);
    expect(result.skipped.map((record) => record.reason)).toEqual(['Line 13: "empty entry" has nothing in it but its name.']);
  });

  it("reads the current header's secure notes: http://sn notes, a card, an address as identity, typed notes with fields; nothing ignored", async () => {
    const result = await lastpassCsvFormat.parse(ownFixture('lastpass-secure-notes.csv'), {});
    expect(result.skipped).toEqual([]);
    expect(result.items.map((item) => [item.type, item.name])).toEqual([
      ['login', 'kai'],
      ['login', 'Root'],
      ['login', 'Chirper'],
      ['login', 'shop.harbor.test'],
      ['note', 'Plain note'],
      ['login', 'htps'],
      ['note', 'savings'],
      ['identity', 'Kai home'],
      ['card', 'Travel card with note'],
      ['note', 'build key'],
      ['note', 'locker item'],
      ['note', 'guest wifi'],
    ]);
    const [account, root, chirper] = result.items;
    expect([account?.urls[0], account?.username, account?.password, account?.notes]).toEqual([
      'https://account.harbor.test',
      'kai@harbor.test',
      'tide-42',
      'Account note',
    ]);
    expect(root?.folder).toBe('infra services');
    expect(chirper?.totp).toBe('JBSWY3DPEHPK3PXP');
    expect(result.items[4]?.notes).toBe('A plain secure note');

    const bank = result.items[6];
    expect(bank?.fields).toEqual([
      { label: 'LastPass note type', kind: 'text', value: 'Bank Account' },
      { label: 'Bank Name', kind: 'text', value: 'Harbor Savings' },
      { label: 'Account Type', kind: 'text', value: 'current' },
      { label: 'Account Number', kind: 'text', value: '987654' },
    ]);
    expect(result.items[7]?.identity).toMatchObject({ title: 'dr', firstName: 'Kai', middleName: 'Ole', lastName: 'Berg' });
    expect(result.items[7]?.fields).toEqual([]);
    expect(result.items[8]).toMatchObject({
      notes: 'card kept in the travel wallet',
      card: { holder: 'K Berg', brand: 'Mastercard', number: '5555555555554444', code: '321', expMonth: '03', expYear: '2029' },
      fields: [],
    });
    expect(result.items[9]?.fields).toContainEqual({ label: 'Passphrase', kind: 'hidden', value: 'tide-46' });
    expect(result.items[9]?.fields).toContainEqual({ label: 'Date', kind: 'text', value: 'March,3,2023' });
    expect(result.items[10]).toMatchObject({ notes: 'first line with quote "\nsecond line' });
    expect(result.items[10]?.fields).toContainEqual({ label: 'LastPass note type', kind: 'text', value: 'Custom' });
    expect(result.items[10]?.fields).toContainEqual({ label: 'locker password', kind: 'hidden', value: 'tide-47' });
    expect(result.items[11]?.fields).toContainEqual({ label: 'Password', kind: 'hidden', value: 'tide-48' });
  });

  it('keeps TOTP, favourites, multi-line login notes and a multi-line private key', async () => {
    const { items } = await lastpassCsvFormat.parse(ownFixture('lastpass-own.csv'), {});
    expect(items[0]).toMatchObject({
      name: 'Mail',
      password: 'p,w"1',
      totp: 'JBSWY3DPEHPK3PXP',
      notes: 'login notes\ntwo lines',
      folder: 'Personal/Email',
      favorite: true,
    });
    expect(items[1]).toMatchObject({
      type: 'card',
      folder: 'Finance',
      card: { holder: 'Ana Lima', brand: 'Mastercard', number: '5555555555554444', code: '321', expMonth: '03', expYear: '2030' },
    });
    expect(items[2]?.fields).toContainEqual({
      label: 'Private Key',
      kind: 'hidden',
      value: '-----BEGIN KEY-----\nAAAA\n-----END KEY-----',
    });
  });

  it('refuses a file without its columns', async () => {
    await expect(lastpassCsvFormat.parse(textFile('url,username,password\na,b,c\n'), {})).rejects.toThrow(ImportFileError);
  });
});
