import { describe, expect, it } from 'vitest';
import { ownFixture, textFile } from '../../test/fixture-file';
import { ImportFileError } from '../import-format';
import { keeperJsonFormat } from './keeper-json';
import { detectFormat } from './registry';

describe('Keeper JSON', () => {
  it('is detected by its content and offered first', () => {
    expect(keeperJsonFormat.detect(ownFixture('keeper.json'))).toBeGreaterThan(0.9);
    expect(detectFormat(ownFixture('keeper.json'))[0]?.format.id).toBe('keeper-json');
    expect(keeperJsonFormat.detect(ownFixture('enpass.json'))).toBe(0);
  });

  it('reads a login, a card, a note, an address and an SSH key with every field; reports links and empty records', async () => {
    const { items, skipped } = await keeperJsonFormat.parse(ownFixture('keeper.json'), {});
    const [bank, visa, door, home, server] = items;
    expect(items).toHaveLength(5);
    expect(bank).toMatchObject({
      type: 'login',
      name: 'Bank',
      username: 'kim',
      password: 'p,w"1\\',
      urls: ['https://bank.example', 'https://m.bank.example'],
      totp: 'otpauth://totp/Bank?secret=JBSWY3DPEHPK3PXP',
      notes: 'branch 12',
      folder: 'Personal/Banking',
      tags: ['Team'],
      fields: [
        { label: 'Customer number', kind: 'text', value: 'C-99' },
        { label: 'Security question', kind: 'text', value: 'First pet?' },
        { label: 'Security question answer', kind: 'hidden', value: 'Rex' },
      ],
    });
    expect(visa).toMatchObject({
      type: 'card',
      name: 'Visa',
      notes: 'backup',
      folder: 'Team/Cards',
      card: { holder: 'Kim Lee', brand: '', number: '4111111111111111', code: '123', expMonth: '04', expYear: '2028' },
      fields: [{ label: 'PIN', kind: 'hidden', value: '2468' }],
    });
    expect(door).toMatchObject({
      type: 'note',
      notes: '4711',
      fields: [{ label: 'note', kind: 'text', value: 'back door 1234' }],
    });
    expect(home).toMatchObject({
      type: 'note',
      fields: [
        { label: 'Keeper type', kind: 'text', value: 'address' },
        { label: 'Name', kind: 'text', value: 'Kim A Lee' },
        { label: 'Address', kind: 'text', value: 'Main St 1, Berlin, 10115, DE' },
        { label: 'Phone', kind: 'text', value: '(DE) 301234 ext. 5' },
        { label: 'Birth date', kind: 'text', value: '2000-01-01' },
      ],
    });
    expect(server).toMatchObject({
      type: 'login',
      username: 'root',
      password: 'key pass',
      fields: [
        { label: 'Keeper type', kind: 'text', value: 'sshKeys' },
        { label: 'Public key', kind: 'text', value: 'ssh-ed25519 AAAA' },
        {
          label: 'Private key',
          kind: 'hidden',
          value: '-----BEGIN OPENSSH PRIVATE KEY-----\nabc\n-----END OPENSSH PRIVATE KEY-----',
        },
        { label: 'Hostname', kind: 'text', value: 'srv.example' },
        { label: 'Port', kind: 'text', value: '22' },
      ],
    });
    expect(skipped).toEqual([
      {
        line: 5,
        reason:
          'Record 5 ("Server"): its links to other Keeper records were not kept; the linked records are imported on their own.',
      },
      { line: 6, reason: 'Record 6 ("Empty record") has nothing in it but its title.' },
    ]);
  });

  it('refuses JSON of another shape', async () => {
    await expect(keeperJsonFormat.parse(textFile('{"items": []}'), {})).rejects.toThrow(/no "records" list/);
    await expect(keeperJsonFormat.parse(textFile('{"records": [{"title": 5}]}'), {})).rejects.toThrow(ImportFileError);
  });
});
