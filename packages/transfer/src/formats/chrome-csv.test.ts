import { describe, expect, it } from 'vitest';
import { EXPECTED_LOGINS, loginQuadruples } from '../../test/expected-logins';
import { ownFixture, textFile } from '../../test/fixture-file';
import { ImportFileError } from '../import-format';
import { chromeCsvFormat } from './chrome-csv';

const parse = (file: ReturnType<typeof textFile>) => chromeCsvFormat.parse(file, {});

describe('Chrome / Edge / Brave CSV', () => {
  it('yields the 12 expected logins with exact passwords from ragged rows; the note stays a note, the empty entry is skipped', async () => {
    const file = ownFixture('twelve-chrome.csv');
    expect(chromeCsvFormat.detect(file)).toBe(1);
    const result = await parse(file);
    expect(loginQuadruples(result.items)).toEqual(EXPECTED_LOGINS);
    expect(result.items.filter((item) => item.name === 'hosting.test')).toHaveLength(2);
    expect(result.items.find((item) => item.name === 'mira@quill.test')?.notes).toBe('Only for the tax office!');
    const notes = result.items.filter((item) => item.type === 'note');
    expect(notes.map((item) => [item.name, item.notes])).toEqual([
      [
        'note',
        'A two-line note, made up for these tests: pepper lantern gravel orchid\nmarble spoon velvet harbour thimble quietly.',
      ],
    ]);
    expect(result.skipped).toEqual([{ line: 13, reason: 'Line 13: "empty entry" has nothing in it but its name.' }]);
  });

  it("reads a current export's note: CRLF, a quoted note with a comma and doubled quotes", async () => {
    const result = await parse(ownFixture('chrome-note-crlf.csv'));
    expect(result.items.map((item) => [item.urls[0], item.username, item.password, item.notes])).toEqual([
      ['https://shop.harbor.test/', 'kai@harbor.test', 'Hq3ZrPm8VdLx2N', 'Top line, with a comma\nBottom line with "quotes"'],
    ]);
  });

  it('handles a BOM, CRLF, quoted newlines, names from the host or user name, a note-only row, an empty row and a surplus value', async () => {
    const result = await parse(ownFixture('chrome-bom-crlf.csv'));
    expect(result.items.map((item) => [item.type, item.name, item.username, item.password, item.notes])).toEqual([
      ['login', 'Example', 'ana', 'pa,ss"word`\\ x', 'first line\nsecond line'],
      ['login', 'no-name.example.org', 'bo', 'secret', ''],
      ['login', 'carla', 'carla', 'only-user', ''],
      ['note', 'Just a note', '', '', 'a note, alone'],
      ['login', 'Extra', 'dan', 'pw', ''],
    ]);
    expect(result.items[4]?.fields).toEqual([{ label: 'Column 6', kind: 'text', value: 'surplus value' }]);
    expect(result.skipped).toEqual([{ line: 7, reason: 'Line 7: the row is empty.' }]);
  });

  it('refuses an unclosed quote with its line, and a file that is not a Chrome export', async () => {
    const broken = 'name,url,username,password\nA,https://a.example,u,p\nB,https://b.example,u,"never closed\n';
    const error = await parse(textFile(broken)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ImportFileError);
    expect((error as ImportFileError).line).toBe(3);
    await expect(parse(textFile('title,login\nx,y\n'))).rejects.toThrow(
      /Line 1: this is not a Chrome, Edge or Brave \(CSV\) export/,
    );
  });

  it('claims only its own header', () => {
    expect(chromeCsvFormat.detect(ownFixture('twelve-firefox.csv'))).toBe(0);
    expect(chromeCsvFormat.detect(ownFixture('twelve-bitwarden.csv'))).toBe(0);
    expect(chromeCsvFormat.detect(textFile('name,url,username,password\n'))).toBe(1);
  });
});
