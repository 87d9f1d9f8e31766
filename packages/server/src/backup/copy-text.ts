import { BackupError } from './lockit-contents';

/** A `COPY` header as pg_restore writes it for a Lockit table: lower-case names, never quoted. */
const COPY_HEADER = /^COPY ([a-z_][a-z0-9_]*)\.([a-z_][a-z0-9_]*) \(([a-z_][a-z0-9_]*(?:, [a-z_][a-z0-9_]*)*)\) FROM stdin;$/;

/**
 * Reads a `COPY … FROM stdin;` line of pg_restore's data-only output into schema, table and
 * columns; anything else is refused. The restore never runs this text: it inserts the rows
 * itself, into columns it checked exist, so an archive's SQL text is never executed.
 */
export function parseCopyHeader(line: string): { schema: string; table: string; columns: string[] } {
  const match = COPY_HEADER.exec(line);
  if (!match) throw new BackupError(`The archive's data holds a statement a Lockit backup never has: "${line.slice(0, 120)}".`);
  return { schema: match[1]!, table: match[2]!, columns: match[3]!.split(', ') };
}

/**
 * Lines of pg_restore's data-only output that carry nothing to restore: comments, blank
 * lines, the session settings of its header and psql's \restrict guards. They are skipped,
 * never run; any other line outside a COPY block is refused.
 */
export function isIgnorableLine(line: string): boolean {
  return (
    line === '' ||
    line.startsWith('--') ||
    /^SET [a-z_]+ = [\w']+;$/.test(line) ||
    line === "SELECT pg_catalog.set_config('search_path', '', false);" ||
    /^\\(un)?restrict [A-Za-z0-9]+$/.test(line)
  );
}

/**
 * One row of COPY text format: fields split on tabs, `\N` is NULL, and backslash escapes
 * (\b \f \n \r \t \v \\, octal \ooo, hex \xhh, any other \c as c) are decoded at the byte
 * level, then read as UTF-8 (the dump's client_encoding).
 */
export function decodeCopyRow(line: string): Array<string | null> {
  return line.split('\t').map((field) => (field === '\\N' ? null : decodeField(field)));
}

const SIMPLE: Record<string, number> = { b: 8, f: 12, n: 10, r: 13, t: 9, v: 11 };

function decodeField(field: string): string {
  if (!field.includes('\\')) return field;
  const bytes = Buffer.from(field, 'utf8');
  const out: number[] = [];
  for (let i = 0; i < bytes.length; i += 1) {
    const byte = bytes[i]!;
    if (byte !== 0x5c || i + 1 >= bytes.length) {
      out.push(byte);
      continue;
    }
    const next = String.fromCharCode(bytes[i + 1]!);
    if (next in SIMPLE) {
      out.push(SIMPLE[next]!);
      i += 1;
    } else if (/[0-7]/.test(next)) {
      let digits = '';
      while (digits.length < 3 && i + 1 < bytes.length && /[0-7]/.test(String.fromCharCode(bytes[i + 1]!))) {
        digits += String.fromCharCode(bytes[i + 1]!);
        i += 1;
      }
      out.push(parseInt(digits, 8) & 0xff);
    } else if (next === 'x' && i + 2 < bytes.length && /[0-9a-fA-F]/.test(String.fromCharCode(bytes[i + 2]!))) {
      let digits = '';
      i += 1;
      while (digits.length < 2 && i + 1 < bytes.length && /[0-9a-fA-F]/.test(String.fromCharCode(bytes[i + 1]!))) {
        digits += String.fromCharCode(bytes[i + 1]!);
        i += 1;
      }
      out.push(parseInt(digits, 16));
    } else {
      out.push(bytes[i + 1]!);
      i += 1;
    }
  }
  return Buffer.from(out).toString('utf8');
}
