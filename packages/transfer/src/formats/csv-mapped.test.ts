import { describe, expect, it } from 'vitest';
import { ownFixture, textFile } from '../../test/fixture-file';
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

  it('gives a type cell naming an Object member ("constructor", "__proto__", "toString") a real type, keeping the cell', () => {
    const file = textFile('name,type,note\na,constructor,x\nb,__proto__,y\nc,toString,z');
    const { items } = parseMappedCsv(file, { name: 'name', type: 'type', notes: 'note' });
    expect(items.map((item) => typeof item.type)).toEqual(['string', 'string', 'string']);
    expect(items.map((item) => [item.type, item.fields])).toEqual([
      ['note', [{ label: 'type', kind: 'text', value: 'constructor' }]],
      ['note', [{ label: 'type', kind: 'text', value: '__proto__' }]],
      ['note', [{ label: 'type', kind: 'text', value: 'toString' }]],
    ]);
  });

  it('flags rows whose number of values differs from the header, and only those', () => {
    const file = textFile('name,username,password\nGood,u,p\nShort,u\nLong,u,p,q\n');
    const { items, warnings } = parseMappedCsv(file, { name: 'name', username: 'username', password: 'password' });
    expect(items).toHaveLength(3);
    expect(warnings).toEqual([
      {
        line: 3,
        reason:
          'Line 3: "Short" has 2 values where the header has 3 columns, so its values may sit under the wrong names. Check this item after the import, or fix the row in the file.',
      },
      {
        line: 4,
        reason:
          'Line 4: "Long" has 4 values where the header has 3 columns, so its values may sit under the wrong names. Check this item after the import, or fix the row in the file.',
      },
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
    const result = await csvMappedFormat.parse(ownFixture('twelve-chrome.csv'), {});
    expect(result.items.find((item) => item.name === 'fediverse.test')).toMatchObject({
      urls: ['https://fediverse.test/'],
      username: 'ulvhart',
      password: "E<JOOfU?#?Cg5%`aB/5j!/'$U",
    });
    expect(csvMappedFormat.detect(ownFixture('twelve-chrome.csv'))).toBe(0.1);
    expect(csvMappedFormat.detect(ownFixture('twelve-bitwarden.json'))).toBe(0);
  });
});
