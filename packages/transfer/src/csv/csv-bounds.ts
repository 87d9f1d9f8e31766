import { ImportFileError } from '../import-format';

/** What one CSV may hold. Past any of these the file is refused before it is parsed. */
export const CSV_LIMITS = {
  records: 100_000,
  columns: 1_000,
  /** Characters in one field (UTF-16 code units): 1 MB of text is far past any note or password. */
  fieldChars: 1024 * 1024,
} as const;

/**
 * Walks the text once, as papaparse will split it (a field that starts with `"` is quoted, `""`
 * inside is one quote, a quote not followed by the delimiter or the end of the line is part of
 * the value), and refuses a file past CSV_LIMITS with the line where it goes past.
 *
 * Why before papaparse: papaparse builds a whole row before anyone sees it, so 50 MB of commas
 * would become one row of 50 million fields (gigabytes and seconds on the main thread). This
 * scan allocates nothing and stops at the first record past a limit. `text` has '\n' line ends.
 */
export function checkCsvBounds(text: string, delimiter: string, escapeChar = '"'): void {
  const backslashEscapes = escapeChar === '\\';
  const delim = delimiter.charCodeAt(0);
  const QUOTE = 0x22;
  const NEWLINE = 0x0a;
  const length = text.length;
  let pos = 0;
  let line = 1;
  let records = 0;
  while (pos < length) {
    const recordLine = line;
    records++;
    // The header row is not a record.
    if (records > CSV_LIMITS.records + 1) {
      throw new ImportFileError(
        `Line ${recordLine}: the file has more than ${CSV_LIMITS.records.toLocaleString('en')} rows; Lockit imports up to ${CSV_LIMITS.records.toLocaleString('en')} at a time.`,
        recordLine,
      );
    }
    let columns = 0;
    let recordEnded = false;
    while (!recordEnded) {
      columns++;
      if (columns > CSV_LIMITS.columns) {
        throw new ImportFileError(`Line ${recordLine}: the row has more than ${CSV_LIMITS.columns} columns.`, recordLine);
      }
      const start = pos;
      let end: number;
      if (text.charCodeAt(pos) === QUOTE) {
        // A quoted field: find the quote that closes it.
        let q = pos;
        for (;;) {
          q = text.indexOf('"', q + 1);
          if (q === -1) {
            end = length;
            line += countNewlines(text, pos, length);
            pos = length;
            recordEnded = true;
            break;
          }
          if (backslashEscapes) {
            // 1Password 7 for Mac writes \" for a quote inside a value, as papaparse reads it then.
            if (text.charCodeAt(q - 1) === 0x5c) continue;
          } else if (text.charCodeAt(q + 1) === QUOTE) {
            q++;
            continue;
          }
          let after = q + 1;
          while (after < length && isBlank(text.charCodeAt(after))) after++;
          const next = text.charCodeAt(after);
          if (after >= length || next === delim || next === NEWLINE) {
            end = q;
            line += countNewlines(text, pos, q);
            pos = after >= length ? length : after + 1;
            if (after >= length) recordEnded = true;
            else if (next === NEWLINE) {
              line++;
              recordEnded = true;
            }
            break;
          }
        }
      } else {
        let p = pos;
        while (p < length) {
          const c = text.charCodeAt(p);
          if (c === delim || c === NEWLINE) break;
          p++;
        }
        end = p;
        if (p >= length) {
          pos = length;
          recordEnded = true;
        } else {
          pos = p + 1;
          if (text.charCodeAt(p) === NEWLINE) {
            line++;
            recordEnded = true;
          }
        }
      }
      if (end - start > CSV_LIMITS.fieldChars) {
        throw new ImportFileError(
          `Line ${recordLine}: a value is longer than 1 MB (column ${columns}); no password manager export has one, so the file was not read.`,
          recordLine,
        );
      }
      if (!recordEnded && pos >= length) recordEnded = true;
    }
  }
}

function isBlank(code: number): boolean {
  return code === 0x20 || code === 0x09;
}

function countNewlines(text: string, from: number, to: number): number {
  let count = 0;
  for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) count++;
  return count;
}
