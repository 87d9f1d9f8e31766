import { describe, expect, it } from 'vitest';
import { EXPECTED_LOGINS, loginQuadruples } from '../../test/expected-logins';
import { ownFixture, textFile } from '../../test/fixture-file';
import { toBitwardenCsv } from '../export/csv-exports';
import { ImportFileError } from '../import-format';
import { emptyTransferItem } from '../transfer-item';
import { bitwardenCsvFormat } from './bitwarden-csv';

const parse = (file: ReturnType<typeof textFile>) => bitwardenCsvFormat.parse(file, {});

describe('Bitwarden CSV', () => {
  it('yields the 12 expected logins with exact passwords and the 2 notes (bitwarden.csv, no reprompt column)', async () => {
    const result = await parse(ownFixture('twelve-bitwarden.csv'));
    expect(result.items).toHaveLength(14);
    expect(loginQuadruples(result.items)).toEqual(EXPECTED_LOGINS);
    const notes = result.items.filter((item) => item.type === 'note');
    expect(notes.map((item) => item.name).sort()).toEqual(['empty entry', 'note']);
    expect(notes.find((item) => item.name === 'note')?.notes).toBe(
      'A two-line note, made up for these tests: pepper lantern gravel orchid\nmarble spoon velvet harbour thimble quietly.',
    );
    expect(result.items.find((item) => item.name === 'harbor bank')?.fields).toEqual([
      { label: 'pin', kind: 'text', value: '104729' },
      { label: 'oldpin', kind: 'text', value: '130363' },
    ]);
    expect(result.items.filter((item) => item.name === 'hosting.test')).toHaveLength(2);
    expect(result.items.find((item) => item.name === 'mira@quill.test')?.folder).toBe('Emails/WS');
  });

  it("reads Bitwarden's current export with reprompt, fields, TOTP and favourites (the reprompt header)", async () => {
    const result = await parse(ownFixture('bitwarden-reprompt.csv'));
    expect(result.items.map((item) => [item.urls[0], item.username, item.password])).toEqual([
      ['https://search.harbor.test', 'kai@harbor.test', 'Xyz789'],
      ['https://games.harbor.test', 'kai', '7Qwe*rtY9u'],
    ]);
    expect(result.items[1]).toMatchObject({
      name: 'Game launcher',
      folder: 'Games',
      favorite: true,
      totp: 'steam://WXYZ987',
      fields: [
        { label: 'Region', kind: 'text', value: 'eu' },
        { label: 'Secret', kind: 'text', value: 'qwerty' },
      ],
    });
    expect(result.items[0]?.favorite).toBe(false);
  });

  it('reads BOM, CRLF, quoted line breaks, several addresses; skips an empty row; a note-only row is a note (own fixture)', async () => {
    const result = await parse(ownFixture('bitwarden-bom-crlf.csv'));
    const [mail, note, fieldsOnly] = result.items;
    expect(mail).toMatchObject({
      type: 'login',
      name: 'Mail',
      folder: 'Work/Mail',
      favorite: true,
      notes: 'line one\nline two, "quoted"',
      urls: ['https://mail.example', 'mail.example'],
      password: 'p,w"`\\ x',
      totp: 'JBSWY3DPEHPK3PXP',
    });
    expect(note).toMatchObject({ type: 'note', name: 'Untitled', notes: 'just a note' });
    expect(fieldsOnly).toMatchObject({
      type: 'note',
      fields: [
        { label: 'Recovery', kind: 'text', value: 'abc' },
        { label: 'no colon line', kind: 'text', value: '' },
      ],
    });
    // The Mail row spans lines 2-3 (a quoted line break), so the empty row is line 4.
    expect(result.skipped).toEqual([{ line: 4, reason: 'Line 4: the row is empty.' }]);
  });

  it("keeps an organisation export's collections as tags and its re-prompt setting as a field", async () => {
    const file = ownFixture('bitwarden-organization.csv');
    expect(bitwardenCsvFormat.detect(file)).toBe(1);
    const { items, skipped } = await parse(file);
    expect(skipped).toEqual([]);
    expect(items.map((item) => [item.type, item.name, item.tags, item.folder])).toEqual([
      ['login', 'Bank', ['Finance', 'Finance/Banks'], null],
      ['note', 'Brand guide', ['Marketing'], null],
      ['login', 'No collection', [], null],
    ]);
    expect(items[0]).toMatchObject({
      urls: ['https://bank.example'],
      username: 'ops@example.org',
      password: 'pw,1',
      fields: [{ label: 'Bitwarden: ask for the master password', kind: 'boolean', value: 'true' }],
    });
    expect(items[1]).toMatchObject({ notes: 'Fonts: Inter', fields: [] });
    expect(items[2]?.totp).toBe('JBSWY3DPEHPK3PXP');
  });

  it('keeps a column it does not know as a custom field, and a value past the header too', async () => {
    const file = textFile(
      'folder,favorite,type,name,notes,fields,login_uri,login_username,login_password,login_totp,archivedDate\n' +
        ',,login,Site,,,https://s.example,u,p,,2026-01-02\n' +
        ',,login,Other,,,https://o.example,u,p,,,extra value\n',
    );
    const { items } = await parse(file);
    expect(items[0]?.fields).toEqual([{ label: 'archivedDate', kind: 'text', value: '2026-01-02' }]);
    expect(items[1]?.fields).toEqual([{ label: 'Column 12', kind: 'text', value: 'extra value' }]);
  });

  it("reads Lockit's own Bitwarden CSV back, tags included", async () => {
    const item = {
      ...emptyTransferItem('login', 'Site'),
      username: 'u',
      password: 'a,"b',
      urls: ['https://a.example', 'b.example'],
      tags: ['x', 'y'],
    };
    const result = await parse(textFile(toBitwardenCsv([item]).csv));
    expect(result.items[0]).toMatchObject({ username: 'u', password: 'a,"b', urls: item.urls, tags: ['x', 'y'], fields: [] });
  });

  it('refuses a CSV without the Bitwarden header, naming the missing columns', async () => {
    const error = await parse(textFile('name,url,username,password\nx,y,z,w')).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ImportFileError);
    expect((error as ImportFileError).message).toBe(
      'Line 1: this is not a Bitwarden (CSV) export: the header has no "type", "login_username", "login_password" column.',
    );
  });

  it('refuses an oversize field with its line', async () => {
    const big = 'x'.repeat(1024 * 1024 + 1);
    const file = textFile(
      `folder,favorite,type,name,notes,fields,login_uri,login_username,login_password,login_totp\n,,login,a,"${big}",,,,,\n`,
    );
    await expect(parse(file)).rejects.toThrow(/^Line 2: a value is longer than 1 MB/);
  });

  it('detects its own header only', () => {
    expect(bitwardenCsvFormat.detect(ownFixture('twelve-bitwarden.csv'))).toBe(1);
    expect(bitwardenCsvFormat.detect(ownFixture('bitwarden-reprompt.csv'))).toBe(1);
    expect(bitwardenCsvFormat.detect(ownFixture('twelve-chrome.csv'))).toBe(0);
    expect(bitwardenCsvFormat.detect(ownFixture('twelve-bitwarden.json'))).toBe(0);
  });
});
