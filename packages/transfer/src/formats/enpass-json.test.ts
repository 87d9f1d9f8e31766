import { describe, expect, it } from 'vitest';
import { ownFixture, textFile } from '../../test/fixture-file';
import { ImportFileError } from '../import-format';
import { enpassJsonFormat } from './enpass-json';
import { detectFormat } from './registry';

describe('Enpass JSON', () => {
  it('is detected by its content and offered first', () => {
    expect(enpassJsonFormat.detect(ownFixture('enpass.json'))).toBeGreaterThan(0.9);
    expect(detectFormat(ownFixture('enpass.json'))[0]?.format.id).toBe('enpass-json');
    expect(enpassJsonFormat.detect(ownFixture('bitwarden-everything.json'))).toBe(0);
  });

  it('reads a login, a card, a note and an identity with every field; reports trash, deleted fields and attachments', async () => {
    const { items, skipped } = await enpassJsonFormat.parse(ownFixture('enpass.json'), {});
    const [bank, card, door, me] = items;
    expect(items).toHaveLength(4);
    expect(bank).toEqual(
      expect.objectContaining({
        type: 'login',
        name: 'Bank',
        username: 'kim',
        password: 'p,w"1\\',
        urls: ['https://bank.example', 'https://m.bank.example'],
        totp: 'otpauth://totp/Bank?secret=JBSWY3DPEHPK3PXP',
        notes: 'branch 12\nask for Ana',
        favorite: true,
        folder: 'Business/Banking',
        tags: ['Shared'],
        createdAt: '2023-11-14T22:13:20.000Z',
        updatedAt: '2023-11-14T22:15:00.000Z',
        fields: [
          { label: 'E-mail', kind: 'text', value: 'kim@example.org' },
          { label: 'Security answer', kind: 'hidden', value: 'blue' },
        ],
      }),
    );
    expect(card).toMatchObject({
      type: 'card',
      name: 'Visa',
      card: { holder: 'Kim Lee', brand: 'Visa', number: '4111111111111111', code: '123', expMonth: '04', expYear: '2028' },
      fields: [{ label: 'PIN', kind: 'hidden', value: '2468' }],
    });
    expect(door).toMatchObject({ type: 'note', name: 'Door', notes: 'door 4711', folder: 'Business', tags: ['Enpass archive'] });
    expect(me).toMatchObject({
      type: 'note',
      name: 'Me',
      fields: [
        { label: 'Enpass category', kind: 'text', value: 'identity' },
        { label: 'First name', kind: 'text', value: 'Kim' },
        { label: 'Last name', kind: 'text', value: 'Lee' },
        { label: 'Passport', kind: 'hidden', value: 'X123' },
      ],
    });
    expect(skipped).toEqual([
      { line: 1, reason: 'Item 1 ("Bank"): 1 field deleted in Enpass was not imported.' },
      { line: 2, reason: 'Item 2 ("Visa"): 1 attached file was not imported; Lockit does not hold attachments.' },
      { line: 5, reason: 'Item 5 ("Old forum") is in Enpass\'s trash: not imported.' },
    ]);
  });

  it('refuses JSON of another shape, naming the item', async () => {
    await expect(enpassJsonFormat.parse(textFile('{"folders": []}'), {})).rejects.toThrow(/no "items" list/);
    await expect(enpassJsonFormat.parse(textFile('{"items": [{"title": 5}]}'), {})).rejects.toThrow(ImportFileError);
  });
});
