import { gzipSync, strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { textFile } from '../../test/fixture-file';
import { toBase64 } from '../backup/base64';
import { AttachmentBudget, gunzipWithin } from './attachment-budget';
import { keepassXmlFormat } from './keepass-xml';

const parse = (xml: string) => keepassXmlFormat.parse(textFile(xml, 'db.xml'), {});

/** An entry with a title, a password unless `bare`, and the given <Binary> elements. */
const entry = (title: string, binaries: string, bare = false) =>
  `<Entry><String><Key>Title</Key><Value>${title}</Value></String>` +
  (bare ? '' : '<String><Key>Password</Key><Value>p</Value></String>') +
  `${binaries}</Entry>`;
const binary = (key: string, value: string) => `<Binary><Key>${key}</Key>${value}</Binary>`;

describe('KeePass 2 XML attachments', () => {
  const photo = Uint8Array.from({ length: 3000 }, (_, i) => (i * 31) % 256);

  it('brings in pooled binaries (gzipped and plain, shared by two entries) and inline ones, byte for byte', async () => {
    const meta =
      '<Meta><Binaries>' +
      `<Binary ID="0" Compressed="True">${toBase64(gzipSync(photo))}</Binary>` +
      `<Binary ID="1">${toBase64(strToU8('plain text'))}</Binary>` +
      '</Binaries></Meta>';
    const xml =
      `<KeePassFile>${meta}<Root><Group><Name>Root</Name>` +
      entry('Photo', binary('photo.jpg', '<Value Ref="0"/>') + binary('readme.txt', '<Value Ref="1"/>')) +
      entry('Copy', binary('same.jpg', '<Value Ref="0"/>')) +
      entry('Inline', binary('inline.bin', `<Value>${toBase64(strToU8('inline bytes'))}</Value>`)) +
      entry('Inline gzip', binary('z.bin', `<Value Compressed="True">${toBase64(gzipSync(strToU8('zipped')))}</Value>`)) +
      '</Group></Root></KeePassFile>';
    const { items, skipped } = await parse(xml);
    expect(skipped).toEqual([]);
    expect(items.map((item) => [item.name, item.attachments])).toEqual([
      [
        'Photo',
        [
          { name: 'photo.jpg', bytes: photo },
          { name: 'readme.txt', bytes: strToU8('plain text') },
        ],
      ],
      ['Copy', [{ name: 'same.jpg', bytes: photo }]],
      ['Inline', [{ name: 'inline.bin', bytes: strToU8('inline bytes') }]],
      ['Inline gzip', [{ name: 'z.bin', bytes: strToU8('zipped') }]],
    ]);
  });

  it('imports an entry with only a title and a file (the file is its content); reports a file whose data is missing', async () => {
    const xml =
      `<KeePassFile><Meta><Binaries><Binary ID="0">${toBase64(strToU8('key'))}</Binary></Binaries></Meta><Root><Group><Name>Root</Name>` +
      entry('Key file', binary('db.key', '<Value Ref="0"/>'), true) +
      entry('Broken', binary('gone.pdf', '<Value Ref="7"/>')) +
      '</Group></Root></KeePassFile>';
    const { items, skipped } = await parse(xml);
    expect(items.map((item) => [item.name, item.type, item.attachments?.map((file) => file.name)])).toEqual([
      ['Key file', 'note', ['db.key']],
      ['Broken', 'login', undefined],
    ]);
    expect(skipped.map((record) => record.reason)).toEqual([
      'Entry 2 ("Broken"): the attached file "gone.pdf" was not imported; the file holds no data for it.',
    ]);
  });

  it('refuses a gzip bomb among the binaries: inflation is counted as it runs, against the budget', () => {
    const bomb = gzipSync(new Uint8Array(4 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(16 * 1024);
    expect(() => gunzipWithin(bomb, new AttachmentBudget(1024 * 1024))).toThrow(/inflate to more than 1 MB/);
    expect(gunzipWithin(bomb, new AttachmentBudget(8 * 1024 * 1024))).toHaveLength(4 * 1024 * 1024);
    expect(gunzipWithin(strToU8('not gzip'), new AttachmentBudget())).toBeNull();
  });
});
