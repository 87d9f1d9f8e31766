import { describe, expect, it } from 'vitest';
import { ownFixture, textFile } from '../../test/fixture-file';
import { ImportFileError, type ImportFile } from '../import-format';
import { CSV_LIMITS } from './csv-bounds';
import { MAX_IMPORT_FILE_BYTES } from './decode-text';
import { cellOf, extraValues, findColumn, isBlankRecord, readCsv } from './read-csv';

function bytesFile(bytes: number[] | Uint8Array): ImportFile {
  return { name: 'x.csv', bytes: bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes) };
}

function refusal(file: ImportFile): ImportFileError {
  try {
    readCsv(file);
  } catch (error) {
    if (error instanceof ImportFileError) return error;
    throw error;
  }
  throw new Error('readCsv accepted the file');
}

describe('readCsv', () => {
  it('reads a header row and records by column name', () => {
    const table = readCsv(textFile('Name,URL\nmail,https://mail.example\n'));
    expect(table.header).toEqual(['Name', 'URL']);
    expect(table.records).toHaveLength(1);
    expect(table.records[0]?.cells).toEqual({ Name: 'mail', URL: 'https://mail.example' });
    expect(table.records[0]?.line).toBe(2);
  });

  it('keeps quoted commas, doubled quotes and line breaks, the breaks as \\n', () => {
    const table = readCsv(textFile('a,b\r\n"x, y","say ""hi""\r\nsecond line"\r\nnext,row'));
    expect(table.records[0]?.raw).toEqual(['x, y', 'say "hi"\nsecond line']);
    expect(table.records[1]?.line).toBe(4);
  });

  it('reads CR-only line ends', () => {
    const table = readCsv(textFile('a,b\r1,2\r3,4'));
    expect(table.records.map((record) => [record.line, record.raw])).toEqual([
      [2, ['1', '2']],
      [3, ['3', '4']],
    ]);
  });

  it('drops a UTF-8 BOM from the first column name', () => {
    const table = readCsv(bytesFile([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('name,password\nx,y')]));
    expect(table.header).toEqual(['name', 'password']);
  });

  it('gives missing trailing columns as empty values (ragged rows)', () => {
    const table = readCsv(ownFixture('twelve-chrome.csv'));
    expect(table.header).toEqual(['name', 'url', 'username', 'password', 'note']);
    const mastodon = table.records.find((record) => record.cells.name === 'fediverse.test');
    expect(mastodon?.raw).toHaveLength(4);
    expect(mastodon?.cells.note).toBe('');
    expect(mastodon?.cells.password).toBe("E<JOOfU?#?Cg5%`aB/5j!/'$U");
  });

  it('numbers each record by the line it starts on, past multi-line values', () => {
    const table = readCsv(ownFixture('twelve-bitwarden.csv'));
    expect(table.records).toHaveLength(14);
    const lines = table.records.map((record) => record.line);
    expect(lines[0]).toBe(2);
    // harbor bank's fields value spans two lines, so the record after it starts two lines later.
    const aib = table.records.findIndex((record) => record.cells.name === 'harbor bank');
    expect(table.records[aib]?.cells.fields).toBe('pin: 104729\noldpin: 130363');
    expect(lines[aib + 1]).toBe((lines[aib] ?? 0) + 2);
  });

  it('does not count a trailing line end as a record', () => {
    expect(readCsv(textFile('a\n1\n')).records).toHaveLength(1);
    expect(readCsv(textFile('a\r\n1\r\n')).records).toHaveLength(1);
  });

  it('keeps a blank line as a blank record at its line', () => {
    const table = readCsv(textFile('a,b\n1,2\n\n3,4\n'));
    expect(table.records.map((record) => record.line)).toEqual([2, 3, 4]);
    expect(table.records.map(isBlankRecord)).toEqual([false, true, false]);
  });

  it('keeps a stray quote inside a value as text (Firefox accounts row)', () => {
    const table = readCsv(ownFixture('firefox-accounts.csv'));
    expect(table.records).toHaveLength(2);
    expect(table.records[0]?.cells.url).toBe('chrome://FirefoxAccounts');
    expect(extraValues(table, table.records[0]!)).toHaveLength(1);
    expect(table.records[1]?.cells).toMatchObject({ url: 'https://harbor.test', username: 'kai', password: 'Lk4-pQ9s' });
    expect(table.records[1]?.line).toBe(3);
  });

  it('reads values that are object keys ("__proto__", "constructor") as plain columns', () => {
    const table = readCsv(textFile('__proto__,constructor\nx,y'));
    expect(table.records[0]?.cells['__proto__']).toBe('x');
    expect(table.records[0]?.cells['constructor']).toBe('y');
    expect(Object.keys(table.records[0]!.cells)).toEqual(['__proto__', 'constructor']);
    expect(Object.getPrototypeOf(table.records[0]!.cells)).toBe(Object.prototype);
    expect(cellOf(table, table.records[0]!, 'missing')).toBe('');
  });

  it('names a repeated column apart so neither value is lost', () => {
    const table = readCsv(textFile('url,URL\na,b'));
    expect(table.header).toEqual(['url', 'URL (2)']);
    expect(table.records[0]?.cells).toEqual({ url: 'a', 'URL (2)': 'b' });
  });

  it('guesses a semicolon delimiter when asked to', () => {
    const table = readCsv(textFile('name;password\nx;"a;b"'), { delimiter: 'auto' });
    expect(table.records[0]?.cells).toEqual({ name: 'x', password: 'a;b' });
  });
});

describe('findColumn and cellOf', () => {
  it('look a column up case-insensitively, first match of several names', () => {
    const table = readCsv(textFile('Title,Login_URI\nx,https://x.example'));
    expect(findColumn(table.header, 'login_uri')).toBe('Login_URI');
    expect(findColumn(table.header, 'url', 'title')).toBe('Title');
    expect(findColumn(table.header, 'nope')).toBeUndefined();
    expect(cellOf(table, table.records[0]!, 'LOGIN_URI')).toBe('https://x.example');
  });
});

describe('readCsv refuses', () => {
  it('an empty file', () => {
    expect(refusal(textFile('')).message).toBe('The file is empty.');
    expect(refusal(textFile('\n\n')).message).toBe('The file is empty.');
  });

  it('invalid UTF-8, naming the line', () => {
    const bytes = [...new TextEncoder().encode('a,b\nx,y\nz,'), 0xc3, 0x28];
    const error = refusal(bytesFile(bytes));
    expect(error.message).toMatch(/^Line 3: the file is not valid UTF-8/);
    expect(error.line).toBe(3);
  });

  it('a UTF-16 file with a clear message', () => {
    expect(refusal(bytesFile([0xff, 0xfe, 0x61, 0x00])).message).toMatch(/UTF-16/);
  });

  it('a file over 50 MB before reading it', () => {
    const error = refusal(bytesFile(new Uint8Array(MAX_IMPORT_FILE_BYTES + 1)));
    expect(error.message).toMatch(/up to 50 MB/);
  });

  it('more than 100,000 records, naming the first line past the limit (100,000 are read)', () => {
    expect(readCsv(textFile('a\n' + 'x\n'.repeat(CSV_LIMITS.records))).records).toHaveLength(CSV_LIMITS.records);
    const error = refusal(textFile('a\n' + 'x\n'.repeat(CSV_LIMITS.records + 1)));
    expect(error.message).toMatch(/more than 100,000 rows/);
    expect(error.line).toBe(CSV_LIMITS.records + 2);
  });

  it('a row of more than 1,000 columns (a CSV bomb of commas) quickly', () => {
    const started = performance.now();
    const error = refusal(textFile('a,b\nx,y\n' + ','.repeat(20_000_000)));
    expect(error.message).toBe('Line 3: the row has more than 1000 columns.');
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('a value over 1 MB, quoted or not', () => {
    const big = 'x'.repeat(CSV_LIMITS.fieldChars + 1);
    expect(refusal(textFile(`a,b\n1,2\n3,${big}`)).message).toMatch(/^Line 3: a value is longer than 1 MB \(column 2\)/);
    expect(refusal(textFile(`a,b\n"multi\nline","${big}"`)).line).toBe(2);
  });

  it('a quoted value that never closes, naming the line it starts on', () => {
    const error = refusal(textFile('a,b\n1,2\n3,"open\nmore\nrows'));
    expect(error.message).toBe(
      'Line 3: a quoted value is never closed (a " is missing), so the rest of the file cannot be read.',
    );
  });
});
