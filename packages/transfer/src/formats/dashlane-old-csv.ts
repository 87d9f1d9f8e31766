import { peekCsvHeader } from '../csv/peek-header';
import { extraValues, isBlankRecord, readCsv } from '../csv/read-csv';
import type { ImportFormat, ParseResult, SkippedRecord } from '../import-format';
import type { TransferItem } from '../transfer-item';
import { fieldOf, loginOrNote } from './item-rules';

/**
 * The CSV of Dashlane's older desktop app ("File > Export > Unsecured archive in CSV"): no
 * header, five values a row: title, website, login, password, note. Values past the fifth are
 * kept as numbered fields. Having no header, it is only guessed from the shape of its first
 * row, below every format with a header, and is there to be chosen by hand.
 */
const COLUMNS = ['title', 'website', 'login', 'password', 'note'];

/** Names a header row would have: a first row holding one of them is a header, not this file. */
const HEADER_WORDS = /^(title|name|url|website|web site|login|username|user name|password|note|notes|comments?)$/i;

export const dashlaneOldCsvFormat: ImportFormat = {
  id: 'dashlane-old-csv',
  label: 'Dashlane, older desktop app (CSV without a header)',
  detect(file) {
    const first = peekCsvHeader(file);
    if (!first || first.length !== COLUMNS.length || first.some((value) => HEADER_WORDS.test(value))) return 0;
    const website = first[1] ?? '';
    return /^(https?:\/\/)?[\w-]+(\.[\w-]+)+(\/\S*)?$/i.test(website) ? 0.3 : 0;
  },
  async parse(file, options): Promise<ParseResult> {
    // The file's first row is a record: a header of Lockit's own is put before it, and every
    // line number given back is the file's own.
    const header = new TextEncoder().encode(`${COLUMNS.join(',')}\n`);
    const body = hasBom(file.bytes) ? file.bytes.subarray(3) : file.bytes;
    const bytes = new Uint8Array(header.length + body.length);
    bytes.set(header);
    bytes.set(body, header.length);
    const table = readCsv({ name: file.name, bytes });
    const items: TransferItem[] = [];
    const skipped: SkippedRecord[] = [];
    for (const record of table.records) {
      const line = record.line - 1;
      if (isBlankRecord(record)) {
        skipped.push({ line, reason: `Line ${line}: the row is empty.` });
        continue;
      }
      const cell = (name: string) => record.cells[name] ?? '';
      const item = loginOrNote({
        name: cell('title'),
        urls: [cell('website').trim()],
        username: cell('login'),
        password: cell('password'),
        notes: cell('note'),
        totp: '',
      });
      extraValues(table, record).forEach((value, index) =>
        item.fields.push(...fieldOf(`Column ${COLUMNS.length + index + 1}`, value)),
      );
      items.push(item);
    }
    options.onProgress?.(1);
    return { format: 'dashlane-old-csv', items, skipped };
  },
};

function hasBom(bytes: Uint8Array): boolean {
  return bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
}
