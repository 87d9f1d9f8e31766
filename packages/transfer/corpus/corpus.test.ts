import { describe, expect, it } from 'vitest';
import { sampleVault } from '../test/fixtures/sample-vault';
import { loginQuadruples } from '../test/expected-logins';
import { transferItemOf } from '../src/backup/backup-contents';
import { toBitwardenExport } from '../src/export/bitwarden-json';
import type { ImportFormatId } from '../src/import-format';
import { detectFormat, parseImport } from '../src/formats/registry';
import { corpusExpectedLogins, corpusFile, corpusFileNames } from './corpus-folder';

/** Each file's own format, by the name the folder gives it. */
const FORMAT_OF: Record<string, ImportFormatId> = {
  '1password.csv': '1password-csv',
  '1password7-windows-bitwarden.csv': '1password-csv',
  'bitwarden-sdk.csv': 'bitwarden-csv',
  'bitwarden-sdk.json': 'bitwarden-json',
  'bitwarden.csv': 'bitwarden-csv',
  'bitwarden.json': 'bitwarden-json',
  'chrome-bitwarden-note.csv': 'chrome-csv',
  'chrome.csv': 'chrome-csv',
  'firefox-bitwarden-accounts.csv': 'firefox-csv',
  'firefox.csv': 'firefox-csv',
  'keepassxc.csv': 'keepassxc-csv',
  'lastpass-proton.csv': 'lastpass-csv',
  'lastpass.csv': 'lastpass-csv',
};

/** The files that hold the same vault, each yielding the folder's expected logins. */
const PRIMARY = ['bitwarden.json', 'bitwarden.csv', 'chrome.csv', 'keepassxc.csv', 'lastpass.csv', '1password.csv'];

/** The other files: the types of the items each yields, in order. */
const ITEM_TYPES: Record<string, string[]> = {
  // Its fifth item is Bitwarden's SSH key type, taken as an SSH key item.
  'bitwarden-sdk.json': ['login', 'note', 'card', 'identity', 'sshKey'],
  'bitwarden-sdk.csv': ['login', 'login'],
  'chrome-bitwarden-note.csv': ['login'],
  'firefox-bitwarden-accounts.csv': ['login'],
  'lastpass-proton.csv': [
    'login',
    'login',
    'login',
    'login',
    'note',
    'login',
    'note',
    'identity',
    'card',
    'note',
    'note',
    'note',
  ],
  '1password7-windows-bitwarden.csv': ['login', 'identity', 'card', 'note'],
};

describe('the folder of real exports', () => {
  it('holds exactly the files these tests know, and lists 12 expected logins', () => {
    expect(corpusFileNames()).toEqual(Object.keys(FORMAT_OF).sort());
    expect(corpusExpectedLogins()).toHaveLength(12);
  });

  for (const [name, format] of Object.entries(FORMAT_OF)) {
    it(`${name} is detected as ${format} first`, () => {
      expect(detectFormat(corpusFile(name))[0]?.format.id).toBe(format);
    });
  }
});

describe('the same vault in every primary format', () => {
  for (const name of PRIMARY) {
    it(`${name} yields the expected logins with exact passwords, and one two-line note`, async () => {
      const result = await parseImport(corpusFile(name), FORMAT_OF[name]!);
      const expected = corpusExpectedLogins();
      expect(loginQuadruples(result.items)).toEqual(loginQuadruples(expected.map((login) => toItem(login))));
      expect(result.items.filter((item) => item.type === 'note' && item.notes.includes('\n'))).toHaveLength(1);
    });
  }

  it('firefox.csv yields the expected user names and passwords (its url column holds titles)', async () => {
    const result = await parseImport(corpusFile('firefox.csv'), 'firefox-csv');
    const pairs = (list: readonly { username: string; password: string }[]) =>
      list.map((login) => `${login.username} ${login.password}`).sort();
    expect(pairs(result.items)).toEqual(pairs(corpusExpectedLogins()));
  });
});

describe('the other real exports', () => {
  for (const [name, types] of Object.entries(ITEM_TYPES)) {
    it(`${name} yields its items, none skipped but a Firefox sync record`, async () => {
      const result = await parseImport(corpusFile(name), FORMAT_OF[name]!);
      expect(result.items.map((item) => item.type)).toEqual(types);
      expect(result.skipped).toHaveLength(name.startsWith('firefox') ? 1 : 0);
    });
  }

  it("Lockit's Bitwarden export has the keys of Bitwarden's own exporter for each item type", () => {
    const theirs = JSON.parse(new TextDecoder().decode(corpusFile('bitwarden-sdk.json').bytes)) as {
      items: Record<string, unknown>[];
    };
    const vault = sampleVault();
    const ours = toBitwardenExport(vault.items.map(transferItemOf), {
      folders: vault.folders,
      now: '2024-04-01T08:30:00.000Z',
      newId: () => crypto.randomUUID(),
    }).items as unknown as Record<string, object>[];
    const keysOf = (value: object | undefined) => Object.keys(value ?? {}).sort();
    for (const type of [1, 2, 3, 4]) {
      const their = theirs.items.find((item) => item.type === type)!;
      const our = ours.find((item) => (item as { type?: number }).type === type)!;
      expect(keysOf(our)).toEqual([...new Set([...keysOf(their), 'fields'])].sort());
    }
  });
});

function toItem(login: { name: string; url: string; username: string; password: string }) {
  return {
    type: 'login',
    name: login.name,
    urls: login.url ? [login.url] : [],
    username: login.username,
    password: login.password,
  };
}
