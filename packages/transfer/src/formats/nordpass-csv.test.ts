import { describe, expect, it } from 'vitest';
import { ownFixture, textFile } from '../../test/fixture-file';
import { ImportFileError } from '../import-format';
import { emptyTransferIdentity } from '../transfer-item';
import { detectFormat } from './registry';
import { nordpassCsvFormat } from './nordpass-csv';

describe('NordPass CSV', () => {
  it('is detected by its header and offered first', () => {
    const file = ownFixture('nordpass.csv');
    expect(nordpassCsvFormat.detect(file)).toBe(1);
    expect(detectFormat(file)[0]?.format.id).toBe('nordpass-csv');
  });

  it('reads a login, a card, an identity and a note with every field; a folder row is reported, not an item', async () => {
    const { items, skipped } = await nordpassCsvFormat.parse(ownFixture('nordpass.csv'), {});
    expect(skipped).toEqual([{ line: 2, reason: 'Line 2: "Work" only declares a folder; the items in it carry its name.' }]);
    const [login, card, identity, note] = items;
    expect(items).toHaveLength(4);
    expect(login).toMatchObject({
      type: 'login',
      name: 'Harbor portal',
      username: 'kim@harbor.example',
      password: 'p,w"1',
      urls: ['https://portal.harbor.example', 'https://files.harbor.example'],
      notes: 'VPN first',
      folder: 'Work',
      fields: [
        { label: 'Employee ID', kind: 'text', value: 'E-77' },
        { label: 'Recovery code', kind: 'hidden', value: 'R-9' },
      ],
    });
    expect(card).toMatchObject({
      type: 'card',
      name: 'Travel card',
      notes: 'for trips',
      folder: 'Work',
      card: { holder: 'Kim Lee', brand: '', number: '4111111111111111', code: '123', expMonth: '09', expYear: '2028' },
      fields: [
        { label: 'PIN', kind: 'hidden', value: '2468' },
        { label: 'ZIP code', kind: 'text', value: '10115' },
      ],
    });
    expect(identity).toMatchObject({
      type: 'identity',
      name: 'Kim',
      notes: 'home',
      folder: null,
      identity: {
        ...emptyTransferIdentity(),
        firstName: 'Kim',
        middleName: 'Ann',
        lastName: 'Lee',
        email: 'kim@example.org',
        phone: '+49 30 1234',
        address1: 'Main St 1',
        address2: 'Flat 2',
        city: 'Berlin',
        state: 'Berlin',
        postalCode: '10115',
        country: 'DE',
      },
      fields: [],
    });
    expect(note).toMatchObject({ type: 'note', name: 'Door code', notes: '4711\nback door 1234', fields: [] });
  });

  it('keeps custom fields that are not JSON as text, and an unknown type as a field', async () => {
    const file = textFile(
      'name,url,username,password,note,cardholdername,cardnumber,cvc,expirydate,zipcode,folder,full_name,phone_number,email,address1,address2,city,country,state,type,custom_fields\n' +
        'Box,https://box.example,u,p,,,,,,,,,,,,,,,,passkey,not json\n',
    );
    const { items } = await nordpassCsvFormat.parse(file, {});
    expect(items[0]?.fields).toEqual([
      { label: 'NordPass type', kind: 'text', value: 'passkey' },
      { label: 'custom_fields', kind: 'text', value: 'not json' },
    ]);
  });

  it('refuses a file without its columns', async () => {
    await expect(nordpassCsvFormat.parse(textFile('name,url\nx,y\n'), {})).rejects.toThrow(ImportFileError);
  });
});
