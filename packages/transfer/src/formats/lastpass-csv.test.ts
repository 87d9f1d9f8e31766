import { describe, expect, it } from 'vitest';
import { EXPECTED_LOGINS, loginQuadruples } from '../../test/expected-logins';
import { ownFixture, sharedFixture, textFile } from '../../test/fixture-file';
import { ImportFileError } from '../import-format';
import { lastpassCsvFormat } from './lastpass-csv';

describe('LastPass CSV', () => {
  it('yields the 12 expected logins with exact passwords and backslash-nested folders; the note stays a note', async () => {
    const file = sharedFixture('lastpass.csv');
    expect(lastpassCsvFormat.detect(file)).toBe(1);
    const result = await lastpassCsvFormat.parse(file, {});
    expect(loginQuadruples(result.items)).toEqual(EXPECTED_LOGINS);
    expect(result.items.find((item) => item.name === 'dpbx@mnyfymt.ws')?.folder).toBe('Emails/WS');
    expect(result.items.filter((item) => item.type === 'note').map((item) => item.name)).toEqual(['note']);
    expect(result.skipped.map((record) => record.reason)).toEqual(['Line 13: "empty entry" has nothing in it but its name.']);
  });

  it("reads Proton's LastPass file: http://sn notes, a card, an address as identity, typed notes with fields; nothing ignored", async () => {
    const result = await lastpassCsvFormat.parse(sharedFixture('lastpass-proton.csv'), {});
    expect(result.skipped).toEqual([]);
    expect(result.items.map((item) => [item.type, item.name])).toEqual([
      ['login', 'nobody'],
      ['login', 'Admin'],
      ['login', 'Twitter'],
      ['login', 'fb.com'],
      ['note', 'Secure note'],
      ['login', 'htts'],
      ['note', 'test'],
      ['identity', 'TestID'],
      ['card', 'Credit Card Item with note'],
      ['note', 'ssh'],
      ['note', 'new custom item'],
      ['note', 'wifi'],
    ]);
    const [account, admin, twitter] = result.items;
    expect([account?.urls[0], account?.username, account?.password, account?.notes]).toEqual([
      'https://account.proton.me',
      'nobody@proton.me',
      'proton123',
      'Secure note',
    ]);
    expect(admin?.folder).toBe('company services');
    expect(twitter?.totp).toBe('base32secret');
    expect(result.items[4]?.notes).toBe('This is a secure note');

    const bank = result.items[6];
    expect(bank?.fields).toEqual([
      { label: 'LastPass note type', kind: 'text', value: 'Bank Account' },
      { label: 'Bank Name', kind: 'text', value: 'test' },
      { label: 'Account Type', kind: 'text', value: 'test' },
      { label: 'Account Number', kind: 'text', value: '333333' },
    ]);
    expect(result.items[7]?.identity).toMatchObject({ title: 'mrs', firstName: 'Test', middleName: 'Joe', lastName: 'Test' });
    expect(result.items[7]?.fields).toEqual([]);
    expect(result.items[8]).toMatchObject({
      notes: 'this is a note for the credit card',
      card: { holder: 'A B', brand: 'Visa', number: '4242424242424242', code: '123', expMonth: '01', expYear: '2025' },
      fields: [],
    });
    expect(result.items[9]?.fields).toContainEqual({ label: 'Passphrase', kind: 'hidden', value: 'password123' });
    expect(result.items[9]?.fields).toContainEqual({ label: 'Date', kind: 'text', value: 'January,31,2001' });
    expect(result.items[10]).toMatchObject({ notes: 'line1 with quote "\nline2' });
    expect(result.items[10]?.fields).toContainEqual({ label: 'LastPass note type', kind: 'text', value: 'Custom' });
    expect(result.items[10]?.fields).toContainEqual({ label: 'my password', kind: 'hidden', value: 'password123' });
    expect(result.items[11]?.fields).toContainEqual({ label: 'Password', kind: 'hidden', value: 'password123' });
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
