import { describe, expect, it } from 'vitest';
import { ownFixture, textFile } from '../../test/fixture-file';
import { ImportFileError } from '../import-format';
import { emptyTransferIdentity } from '../transfer-item';
import { onePasswordPifFormat } from './onepassword-1pif';
import { detectFormat } from './registry';

describe('1Password 1PIF', () => {
  it('is detected by its content and offered first', () => {
    const file = ownFixture('onepassword.1pif');
    expect(onePasswordPifFormat.detect(file)).toBeGreaterThan(0.9);
    expect(detectFormat(file)[0]?.format.id).toBe('1pif');
  });

  it('reads logins, a card, an identity, a note, a password and other categories with every field', async () => {
    const { items, skipped } = await onePasswordPifFormat.parse(ownFixture('onepassword.1pif'), {});
    const [bank, visa, me, door, wifi, router] = items;
    expect(items).toHaveLength(6);
    expect(bank).toEqual(
      expect.objectContaining({
        type: 'login',
        name: 'Bank',
        username: 'kim',
        password: 'p,w"1\\',
        urls: ['https://bank.example', 'https://m.bank.example'],
        totp: 'otpauth://totp/Bank?secret=JBSWY3DPEHPK3PXP',
        notes: 'branch 12',
        folder: 'Work/Banking',
        tags: ['money'],
        favorite: true,
        createdAt: '2017-07-14T02:40:00.000Z',
        updatedAt: '2020-09-13T12:26:40.000Z',
        passwordHistory: [
          { password: 'old', changedAt: '2020-09-13T12:26:40.000Z' },
          { password: 'older', changedAt: '2017-07-14T02:40:00.000Z' },
        ],
        fields: [
          { label: 'remember', kind: 'text', value: '\u2713' },
          { label: 'Customer number', kind: 'text', value: 'C-99' },
        ],
      }),
    );
    expect(visa).toMatchObject({
      type: 'card',
      card: { holder: 'Kim Lee', brand: 'visa', number: '4111111111111111', code: '123', expMonth: '04', expYear: '2028' },
      fields: [{ label: 'PIN', kind: 'hidden', value: '2468' }],
    });
    expect(me).toMatchObject({
      type: 'identity',
      identity: {
        ...emptyTransferIdentity(),
        firstName: 'Kim',
        middleName: 'A',
        lastName: 'Lee',
        email: 'kim@example.org',
        phone: '+49 301234',
        address1: 'Main St 1',
        city: 'Berlin',
        state: 'BE',
        postalCode: '10115',
        country: 'de',
      },
      fields: [{ label: 'birth date', kind: 'text', value: '2000-01-01' }],
    });
    expect(door).toMatchObject({ type: 'note', notes: '4711\nback door 1234', fields: [] });
    expect(wifi).toMatchObject({ type: 'login', name: 'Wi-Fi guest', password: 'guest-pass', fields: [] });
    expect(router).toMatchObject({
      type: 'note',
      fields: [
        { label: '1Password category', kind: 'text', value: 'wallet.computer.Router' },
        { label: 'network name', kind: 'text', value: 'home' },
        { label: 'wireless network password', kind: 'hidden', value: 'w1f1' },
      ],
    });
    expect(skipped).toEqual([
      { line: 17, reason: 'Line 17: a record of an item deleted in 1Password: not imported.' },
      { line: 19, reason: 'Line 19: "Old forum" is in 1Password\'s trash: not imported.' },
    ]);
  });

  it('refuses a line that is not a record, naming it', async () => {
    const error = await onePasswordPifFormat
      .parse(textFile('{"typeName":"securenotes.SecureNote","title":"a"}\n{"typeName": "cut'), {})
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ImportFileError);
    expect((error as ImportFileError).line).toBe(2);
  });
});
