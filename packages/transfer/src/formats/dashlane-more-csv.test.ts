import { describe, expect, it } from 'vitest';
import { ownFixture } from '../../test/fixture-file';
import { emptyTransferIdentity } from '../transfer-item';
import {
  dashlaneIdsCsvFormat,
  dashlaneNotesCsvFormat,
  dashlanePaymentsCsvFormat,
  dashlanePersonalInfoCsvFormat,
} from './dashlane-more-csv';
import { detectFormat } from './registry';

const identity = (values: Partial<ReturnType<typeof emptyTransferIdentity>>) => ({ ...emptyTransferIdentity(), ...values });

describe("Dashlane's other CSV files", () => {
  it.each([
    ['dashlane-payments.csv', 'dashlane-payments-csv'],
    ['dashlane-ids.csv', 'dashlane-ids-csv'],
    ['dashlane-personalInfo.csv', 'dashlane-personal-info-csv'],
    ['dashlane-securenotes.csv', 'dashlane-notes-csv'],
  ])('%s is detected as %s first', (name, id) => {
    expect(detectFormat(ownFixture(name))[0]?.format.id).toBe(id);
  });

  it('payments.csv: a card with every field, a bank account as a note with hidden number', async () => {
    const { items, skipped } = await dashlanePaymentsCsvFormat.parse(ownFixture('dashlane-payments.csv'), {});
    expect(skipped).toEqual([]);
    expect(items[0]).toMatchObject({
      type: 'card',
      name: 'Travel Visa',
      card: { holder: 'Kim Lee', brand: '', number: '4111111111111111', code: '123', expMonth: '04', expYear: '2028' },
      fields: [
        { label: 'country', kind: 'text', value: 'DE' },
        { label: 'issuing_bank', kind: 'text', value: 'Example Bank' },
      ],
    });
    expect(items[1]).toMatchObject({
      type: 'note',
      name: 'Savings',
      fields: [
        { label: 'Account holder', kind: 'text', value: 'Kim Lee' },
        { label: 'Account number', kind: 'hidden', value: 'DE02120300000000202051' },
        { label: 'Routing number', kind: 'text', value: 'BYLADEM1001' },
        { label: 'country', kind: 'text', value: 'DE' },
        { label: 'issuing_bank', kind: 'text', value: 'Example Bank' },
      ],
    });
  });

  it('ids.csv: passports, licences and social security numbers in their places, other numbers as fields, dates kept', async () => {
    const { items } = await dashlaneIdsCsvFormat.parse(ownFixture('dashlane-ids.csv'), {});
    expect(items.map((item) => [item.type, item.name, item.identity, item.fields])).toEqual([
      [
        'identity',
        'Passport: Kim Ann Lee',
        identity({ firstName: 'Kim', lastName: 'Ann Lee', passport: 'C01X00T47' }),
        [
          { label: 'Issued', kind: 'text', value: '2020-01-15' },
          { label: 'Expires', kind: 'text', value: '2030-01-14' },
          { label: 'Place of issue', kind: 'text', value: 'Berlin' },
        ],
      ],
      [
        'identity',
        'Driver licence: Kim Lee',
        identity({ firstName: 'Kim', lastName: 'Lee', license: 'B072RRE2I55' }),
        [
          { label: 'Issued', kind: 'text', value: '2015-06-01' },
          { label: 'Expires', kind: 'text', value: '2030-06-01' },
          { label: 'Issuing state', kind: 'text', value: 'BE' },
        ],
      ],
      [
        'identity',
        'Social security number: Kim Lee',
        identity({ firstName: 'Kim', lastName: 'Lee', ssn: '65 170839 J 003' }),
        [],
      ],
      [
        'identity',
        'Tax number: Kim Lee',
        identity({ firstName: 'Kim', lastName: 'Lee' }),
        [{ label: 'Tax number', kind: 'text', value: '12/345/67890' }],
      ],
    ]);
  });

  it('personalInfo.csv: each row an identity with what it holds', async () => {
    const { items } = await dashlanePersonalInfoCsvFormat.parse(ownFixture('dashlane-personalInfo.csv'), {});
    expect(items.map((item) => [item.name, item.identity, item.fields])).toEqual([
      [
        'Me',
        identity({ title: 'Dr', firstName: 'Kim', middleName: 'Ann', lastName: 'Lee' }),
        [
          { label: 'Login', kind: 'text', value: 'kimlee' },
          { label: 'Date of birth', kind: 'text', value: '1990-02-03' },
          { label: 'Place of birth', kind: 'text', value: 'Hamburg' },
          { label: 'Job title', kind: 'text', value: 'Engineer' },
        ],
      ],
      ['Personal mail', identity({ email: 'kim@example.org' }), [{ label: 'Email type', kind: 'text', value: 'PERSO' }]],
      ['Mobile', identity({ phone: '+49 301234' }), []],
      [
        'Home',
        identity({
          address1: '1 Main St',
          address2: 'Flat 2, 3',
          city: 'Berlin',
          state: 'BE',
          postalCode: '10115',
          country: 'DE',
        }),
        [
          { label: 'Recipient', kind: 'text', value: 'Kim Lee' },
          { label: 'Door code', kind: 'hidden', value: '4711' },
        ],
      ],
      ['Blog', identity({}), [{ label: 'Website', kind: 'text', value: 'https://kim.example' }]],
    ]);
  });

  it('securenotes.csv: notes with their text', async () => {
    const { items } = await dashlaneNotesCsvFormat.parse(ownFixture('dashlane-securenotes.csv'), {});
    expect(items.map((item) => [item.type, item.name, item.notes])).toEqual([
      ['note', 'Door', '4711\nback door 1234'],
      ['note', 'Wi-Fi', 'guest: "w1f1", home: x'],
    ]);
  });
});
