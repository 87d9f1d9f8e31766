import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { ownFixture, textFile } from '../../test/fixture-file';
import { IMPORT_FORMAT_IDS, ImportFileError, type ImportFormatId } from '../import-format';
import { detectFormat, IMPORT_FORMATS, parseImport } from './registry';

/** Each own fixture's format. */
const OWN: Record<string, ImportFormatId> = {
  'twelve-1password.csv': '1password-csv',
  'onepassword7-windows.csv': '1password-csv',
  'bitwarden-reprompt.csv': 'bitwarden-csv',
  'bitwarden-sdk-shape.json': 'bitwarden-json',
  'twelve-bitwarden.csv': 'bitwarden-csv',
  'twelve-bitwarden.json': 'bitwarden-json',
  'chrome-note-crlf.csv': 'chrome-csv',
  'twelve-chrome.csv': 'chrome-csv',
  'firefox-accounts.csv': 'firefox-csv',
  'twelve-firefox.csv': 'firefox-csv',
  'twelve-keepassxc.csv': 'keepassxc-csv',
  'lastpass-secure-notes.csv': 'lastpass-csv',
  'twelve-lastpass.csv': 'lastpass-csv',
  'proton-pass.csv': 'proton-csv',
  'proton-pass.json': 'proton-json',
  'generic-semicolon.csv': 'csv-mapped',
  'bitwarden-everything.json': 'bitwarden-json',
  'bitwarden-bom-crlf.csv': 'bitwarden-csv',
  'bitwarden-organization.csv': 'bitwarden-csv',
  'bitwarden-old.json': 'bitwarden-json',
  'onepassword7-mac.csv': '1password-csv',
  'proton-pass-older.csv': 'proton-csv',
  'nordpass.csv': 'nordpass-csv',
  'enpass.json': 'enpass-json',
  'keeper.json': 'keeper-json',
  'onepassword.1pif': '1pif',
  'keepassx-0.4.xml': 'keepassx-xml',
  'roboform.csv': 'roboform-csv',
};

const registered = new Set(IMPORT_FORMATS.map((format) => format.id));

describe('detectFormat over own fixtures and odd input', () => {
  for (const [name, expected] of Object.entries(OWN)) {
    it(`${name}: ${expected} first`, () => {
      expect(detectFormat(ownFixture(name))[0]?.format.id).toBe(expected);
    });
  }

  it('orders candidates by confidence, any CSV also offered for column mapping', () => {
    const candidates = detectFormat(ownFixture('twelve-bitwarden.csv'));
    expect(candidates.map((candidate) => candidate.format.id)).toEqual(['bitwarden-csv', 'csv-mapped']);
    expect(candidates[0]!.confidence).toBeGreaterThan(candidates[1]!.confidence);
  });

  it("tells Proton Pass's ZIP export from other ZIPs", () => {
    const zip = zipSync({ 'Proton Pass/data.json': ownFixture('proton-pass.json').bytes });
    expect(detectFormat({ name: 'export.zip', bytes: zip })[0]?.format.id).toBe('proton-json');
    expect(detectFormat({ name: 'other.zip', bytes: zipSync({ 'readme.txt': new Uint8Array([65]) }) })).toEqual([]);
  });

  it('recognises nothing in an empty or binary file', () => {
    expect(detectFormat(textFile(''))).toEqual([]);
    expect(detectFormat({ name: 'x.bin', bytes: new Uint8Array([0, 1, 2, 3, 0, 0xff]) })).toEqual([]);
  });

  it('registers only known format ids, each once', () => {
    const ids = IMPORT_FORMATS.map((format) => format.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(IMPORT_FORMAT_IDS).toContain(id);
  });
});

describe('parseImport', () => {
  it('parses with the chosen format, even over the detected one', async () => {
    const result = await parseImport(ownFixture('twelve-bitwarden.csv'), 'csv-mapped');
    expect(result.format).toBe('csv-mapped');
    expect(result.items).toHaveLength(14);
  });

  it('refuses a format that is not registered', async () => {
    const missing = IMPORT_FORMAT_IDS.find((id) => !registered.has(id));
    if (missing === undefined) return;
    await expect(parseImport(textFile('a,b'), missing)).rejects.toBeInstanceOf(ImportFileError);
  });
});
