import { readFileSync } from 'node:fs';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { sampleVault } from '../../test/fixtures/sample-vault';
import { transferItemOf } from '../backup/backup-contents';
import { toBitwardenExport, type BitwardenItem } from './bitwarden-json';
import { BITWARDEN_CSV_HEADER, GENERIC_CSV_HEADER, toBitwardenCsv, toGenericCsv } from './csv-exports';

const items = () => sampleVault().items.map(transferItemOf);
const NOW = '2024-04-01T08:30:00.000Z';
let counter = 0;
const newId = () => `00000000-0000-4000-8000-${String(++counter).padStart(12, '0')}`;

/** An export in the shape Bitwarden's own exporter writes (own fixture): the shape its importer expects. */
const bitwardenSdk = JSON.parse(
  readFileSync(new URL('../../test/fixtures/bitwarden-sdk-shape.json', import.meta.url), 'utf8'),
) as { items: Record<string, unknown>[] };
const keysOf = (value: object | undefined) => Object.keys(value ?? {}).sort();

describe('Bitwarden JSON export', () => {
  const exported = toBitwardenExport(items(), { folders: sampleVault().folders, now: NOW, newId });
  const byName = (name: string) => exported.items.find((item) => item.name === name)!;

  it('has the keys Bitwarden writes for each item type, and for logins, cards and identities', () => {
    for (const type of [1, 2, 3, 4]) {
      const theirs = bitwardenSdk.items.find((item) => item.type === type)!;
      const ours = exported.items.find((item) => item.type === type)! as unknown as Record<string, object>;
      // Bitwarden leaves `fields` out when an item has none; its importer reads an empty list alike.
      expect(keysOf(ours)).toEqual([...new Set([...keysOf(theirs), 'fields'])].sort());
      for (const part of ['login', 'card', 'identity', 'secureNote']) {
        expect(keysOf(ours[part])).toEqual(keysOf(theirs[part] as object | undefined));
      }
    }
  });

  it('writes a login field by field, with Bitwarden’s codes and nulls', () => {
    const bank = byName('Bank, "main"');
    const folder = exported.folders.find((f) => f.id === bank.folderId);
    expect(folder?.name).toBe('Work/Banking');
    expect(bank).toMatchObject<Partial<BitwardenItem>>({
      type: 1,
      reprompt: 0,
      favorite: true,
      notes: 'Line one\nLine two, with a comma\n"quoted"',
      creationDate: '2024-03-01T10:00:00.000Z',
      revisionDate: '2024-03-05T10:00:00.000Z',
      deletedDate: null,
      organizationId: null,
      collectionIds: null,
      login: {
        uris: [
          { match: 2, uri: 'https://bank.example.com/login' },
          { match: null, uri: 'https://m.bank.example.com' },
        ],
        username: 'alice@example.com',
        password: 'p,a"s`s\\ w=ord',
        totp: 'otpauth://totp/Bank:alice?secret=JBSWY3DPEHPK3PXP&issuer=Bank',
        fido2Credentials: [],
      },
      fields: [
        { name: 'PIN', value: '4321', type: 1, linkedId: null },
        { name: 'Branch', value: 'Main street', type: 0, linkedId: null },
        { name: 'Paperless', value: 'true', type: 2, linkedId: null },
        { name: 'Tags', value: 'finance, important', type: 0, linkedId: null },
      ],
      passwordHistory: [
        { lastUsedDate: '2024-03-05T10:00:00.000Z', password: 'older-password' },
        { lastUsedDate: '2024-03-03T10:00:00.000Z', password: 'oldest-password' },
      ],
    });
  });

  it('writes notes, cards and identities in Bitwarden’s objects, and Trash as deletedDate', () => {
    expect(byName('Wi-Fi')).toMatchObject({ type: 2, secureNote: { type: 0 }, passwordHistory: null });
    expect(byName('Wi-Fi').login).toBeUndefined();
    expect(byName('Visa').card).toEqual({
      cardholderName: 'Alice Doe',
      brand: 'Visa',
      number: '4111111111111111',
      expMonth: '7',
      expYear: '2029',
      code: '123',
    });
    expect(byName('Me').identity).toMatchObject({
      firstName: 'Alice',
      ssn: '123-45-6789',
      passportNumber: 'X1234567',
      licenseNumber: 'D-998877',
      address3: null,
    });
    expect(byName('Old forum').deletedDate).toBe('2024-03-20T09:00:00.000Z');
  });

  it('lists every folder with its parents, empty ones too, each with an id', () => {
    expect(exported.folders.map((folder) => folder.name)).toEqual(['Empty', 'Work', 'Work/Banking']);
    expect(new Set(exported.folders.map((folder) => folder.id)).size).toBe(3);
  });
});

describe('Bitwarden CSV export', () => {
  const { csv, leftOut } = toBitwardenCsv(items());
  const parsed = Papa.parse<Record<string, string>>(csv, { header: true });

  it('has Bitwarden’s header and one row per login or note; cards and identities are counted out', () => {
    expect(csv.split('\r\n')[0]).toBe(BITWARDEN_CSV_HEADER.join(','));
    expect(parsed.errors).toEqual([]);
    expect(parsed.data.map((row) => row.name)).toEqual(['Bank, "main"', 'Wi-Fi', 'Old forum']);
    expect(leftOut).toBe(2);
  });

  it('keeps every value exact, quotes, commas, newlines and a leading = included', () => {
    expect(parsed.data[0]).toEqual({
      folder: 'Work/Banking',
      favorite: '1',
      type: 'login',
      name: 'Bank, "main"',
      notes: 'Line one\nLine two, with a comma\n"quoted"',
      fields: 'PIN: 4321\nBranch: Main street\nPaperless: true\nTags: finance, important',
      reprompt: '0',
      login_uri: 'https://bank.example.com/login,https://m.bank.example.com',
      login_username: 'alice@example.com',
      login_password: 'p,a"s`s\\ w=ord',
      login_totp: 'otpauth://totp/Bank:alice?secret=JBSWY3DPEHPK3PXP&issuer=Bank',
    });
    expect(parsed.data[1]).toMatchObject({ type: 'note', notes: '=SUM(A1:A2)\n+ second line\n@third', login_uri: '' });
  });
});

describe('generic CSV export', () => {
  const csv = toGenericCsv(items());
  const parsed = Papa.parse<Record<string, string>>(csv, { header: true });

  it('writes every item, of every type, with every field in its own column', () => {
    expect(parsed.errors).toEqual([]);
    expect(parsed.meta.fields).toEqual(GENERIC_CSV_HEADER);
    expect(parsed.data).toHaveLength(5);
    expect(parsed.data[0]).toMatchObject({
      type: 'login',
      urls: 'https://bank.example.com/login\nhttps://m.bank.example.com',
      custom_fields: 'PIN: 4321\nBranch: Main street\nPaperless: true',
      tags: 'finance\nimportant',
      folder: 'Work/Banking',
      favorite: 'yes',
      password_history: '2024-03-05T10:00:00.000Z: older-password\n2024-03-03T10:00:00.000Z: oldest-password',
      in_trash_since: '',
    });
    expect(parsed.data[2]).toMatchObject({ type: 'card', card_number: '4111111111111111', card_exp_year: '2029' });
    expect(parsed.data[3]).toMatchObject({
      type: 'identity',
      identity_first_name: 'Alice',
      identity_postal_code: '62701',
      identity_ssn: '123-45-6789',
    });
    expect(parsed.data[4]!.in_trash_since).toBe('2024-03-20T09:00:00.000Z');
  });

  it('neutralises cells a spreadsheet would run as a formula', () => {
    expect(parsed.data[1]!.notes).toBe("'=SUM(A1:A2)\n+ second line\n@third");
    expect(parsed.data[2]!.custom_fields).toBe('Bank phone: +44 20 7946 0000');
  });
});
