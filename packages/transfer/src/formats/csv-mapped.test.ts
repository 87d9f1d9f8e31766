import { describe, expect, it } from 'vitest';
import { ownFixture, sharedFixture, textFile } from '../../test/fixture-file';
import { ImportFileError } from '../import-format';
import { csvMappedFormat, parseMappedCsv, previewCsv } from './csv-mapped';

describe('previewCsv', () => {
  it('gives the header, up to five example rows and a suggested mapping', () => {
    const preview = previewCsv(ownFixture('generic-semicolon.csv'));
    expect(preview.header).toEqual([
      'Title',
      'Website',
      'Alt URL',
      'E-mail',
      'Password',
      'Comments',
      'Group',
      'Tags',
      'Starred',
      'PIN',
      'Colour',
    ]);
    expect(preview.examples).toHaveLength(5);
    expect(preview.examples[0]?.[4]).toBe('a;b"c');
    expect(preview.records).toBe(5);
    expect(preview.suggested).toEqual({
      name: 'Title',
      username: 'E-mail',
      password: 'Password',
      url: ['Website'],
      notes: 'Comments',
      folder: 'Group',
      tags: 'Tags',
      favorite: 'Starred',
    });
  });

  it('shows only the first five rows of a long file', () => {
    const rows = Array.from({ length: 20 }, (_, index) => `site${index},pw${index}`).join('\n');
    expect(previewCsv(textFile(`site,password\n${rows}`)).examples).toHaveLength(5);
  });
});

describe('parseMappedCsv', () => {
  const mapping = {
    name: 'Title',
    username: 'E-mail',
    password: 'Password',
    url: ['Website', 'Alt URL'],
    notes: 'Comments',
    folder: 'Group',
    tags: 'Tags',
    favorite: 'Starred',
  };

  it('maps the chosen columns, several address columns, and keeps every other value as a field', () => {
    const result = parseMappedCsv(ownFixture('generic-semicolon.csv'), mapping);
    const [mail, nameless, note, extra] = result.items;
    expect(mail).toMatchObject({
      type: 'login',
      name: 'Mail',
      username: 'ada@example.com',
      password: 'a;b"c',
      urls: ['https://mail.example', 'webmail.example'],
      notes: 'two\nlines',
      folder: 'Work/Mail',
      tags: ['x', 'y'],
      favorite: true,
      fields: [
        { label: 'PIN', kind: 'hidden', value: '1234' },
        { label: 'Colour', kind: 'text', value: 'blue' },
      ],
    });
    expect(nameless).toMatchObject({ type: 'login', name: 'nameless.example', password: 'pw' });
    expect(note).toMatchObject({ type: 'note', name: 'Untitled', notes: 'just a note' });
    expect(extra).toMatchObject({
      type: 'note',
      name: 'Extra',
      fields: [{ label: 'Column 12', kind: 'text', value: 'surplus' }],
    });
    expect(result.skipped).toEqual([{ line: 6, reason: 'Line 6: the row is empty.' }]);
  });

  it('takes a type column when nothing is lost by it', () => {
    const file = textFile('name,kind,password,number\nA,note,,\nB,note,secret,\nC,card,,4111\n');
    const result = parseMappedCsv(file, { name: 'name', type: 'kind', password: 'password' });
    expect(result.items.map((item) => [item.name, item.type, item.fields.map((field) => field.value)])).toEqual([
      ['A', 'note', []],
      ['B', 'login', ['note']],
      ['C', 'card', ['4111']],
    ]);
  });

  it('refuses a mapping naming a column the file lacks', () => {
    const error = (() => {
      try {
        parseMappedCsv(ownFixture('generic-semicolon.csv'), { name: 'Nope', url: ['Website', 'Also nope'] });
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(ImportFileError);
    expect((error as Error).message).toBe('Line 1: the file has no column "Nope", "Also nope"; choose the columns again.');
  });

  it('as a format, reads with the suggested mapping and scores below every known format', async () => {
    const result = await csvMappedFormat.parse(sharedFixture('chrome.csv'), {});
    expect(result.items.find((item) => item.name === 'mastodon.social')).toMatchObject({
      urls: ['https://mastodon.social/'],
      username: 'ostqxi',
      password: "D<INNeT?#?Bf4%`zA/4i!/'$T",
    });
    expect(csvMappedFormat.detect(sharedFixture('chrome.csv'))).toBe(0.1);
    expect(csvMappedFormat.detect(sharedFixture('bitwarden.json'))).toBe(0);
  });
});
