import { BackupError } from './lockit-contents';

/**
 * The kinds of entry a pg_dump of a Lockit schema holds. Only the rows of TABLE DATA entries
 * are ever restored; the others describe what Lockit's own migrations make (the restore makes
 * them again from the migrations, never from the archive) and are allowed so that a genuine
 * dump passes. COMMENT and ACL are allowed only on the schema itself.
 */
const ALLOWED_KINDS = ['SCHEMA', 'TABLE', 'TABLE DATA', 'INDEX', 'CONSTRAINT', 'FK CONSTRAINT'] as const;

/** One `pg_restore --list` line: `224; 1259 16502 TABLE <schema> <name> <owner>`. */
const ENTRY = /^\d+; \d+ \d+ (.+)$/;

/**
 * Checks an archive's table of contents (`pg_restore --list`) before anything is restored.
 *
 * Security invariant: the archive may hold nothing but the schema `schema` itself, tables,
 * their rows, indexes and constraints, all in that schema; a function, trigger, view,
 * sequence, extension, rule, policy, large object, another schema or anything else is refused
 * (BackupError naming the entries), so no archive can bring code or objects of its own. Which
 * tables are Lockit's is checked later, against the tables the migrations made.
 * Returns the names of the tables whose rows the archive holds.
 */
export function checkArchiveEntries(toc: string, schema: string): string[] {
  const foreign: string[] = [];
  const withRows: string[] = [];
  for (const line of toc.split('\n')) {
    if (line.trim() === '' || line.startsWith(';')) continue;
    const entry = ENTRY.exec(line)?.[1];
    const parsed = entry === undefined ? undefined : parseEntry(entry, schema);
    if (!parsed) {
      foreign.push(entry ?? line);
      continue;
    }
    if (parsed.kind === 'TABLE DATA') withRows.push(parsed.name);
  }
  if (foreign.length > 0) {
    const shown = foreign.slice(0, 5).join('; ');
    throw new BackupError(
      `The archive holds objects a Lockit backup never has (${shown}${foreign.length > 5 ? `; and ${foreign.length - 5} more` : ''}): ` +
        'it was changed after the backup, or is not a Lockit backup. Nothing was changed.',
    );
  }
  return withRows;
}

function parseEntry(entry: string, schema: string): { kind: string; name: string } | undefined {
  if (entry === `SCHEMA - ${schema} ${entry.split(' ').at(-1)}`) return { kind: 'SCHEMA', name: schema };
  if (entry.startsWith(`COMMENT - SCHEMA ${schema} `) || entry.startsWith(`ACL - SCHEMA ${schema} `)) {
    return { kind: 'SCHEMA', name: schema };
  }
  // Longest kinds first: "TABLE DATA" before "TABLE", "FK CONSTRAINT" before "CONSTRAINT".
  const kind = [...ALLOWED_KINDS].sort((a, b) => b.length - a.length).find((k) => entry.startsWith(`${k} ${schema} `));
  if (!kind || kind === 'SCHEMA') return undefined;
  const name = entry.slice(kind.length + schema.length + 2).split(' ')[0];
  return name ? { kind, name } : undefined;
}
