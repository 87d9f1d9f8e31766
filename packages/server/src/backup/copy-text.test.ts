import { describe, expect, it } from 'vitest';
import { decodeCopyRow, isIgnorableLine, parseCopyHeader } from './copy-text';

describe('COPY text as pg_restore writes it', () => {
  it('decodes NULL, tabs, newlines, backslashes, octal and hex escapes, and UTF-8', () => {
    expect(decodeCopyRow('a\\tb\t\\N\tline\\none\\\\two\t\\101\\x42\tcafé')).toEqual([
      'a\tb',
      null,
      'line\none\\two',
      'AB',
      'café',
    ]);
    expect(decodeCopyRow('\\\\x00ff')).toEqual(['\\x00ff']);
    expect(decodeCopyRow('\\303\\251')).toEqual(['é']);
  });

  it('reads a Lockit table header and refuses any other statement, so no archive text is ever run', () => {
    expect(parseCopyHeader('COPY lockit.users (id, username, email) FROM stdin;')).toEqual({
      schema: 'lockit',
      table: 'users',
      columns: ['id', 'username', 'email'],
    });
    for (const line of [
      'COPY lockit.users (id) FROM stdin; DROP TABLE lockit.users;',
      'COPY lockit.users (id) FROM PROGRAM \'sh -c "id"\';',
      'COPY "lockit"."users" (id) FROM stdin;',
      'CREATE FUNCTION lockit.f() RETURNS int AS $$ select 1 $$ LANGUAGE sql;',
      "SELECT pg_catalog.setval('lockit.s', 1, true);",
    ]) {
      expect(() => parseCopyHeader(line), line).toThrow(/a statement a Lockit backup never has/);
    }
  });

  it("skips only pg_restore's own header lines", () => {
    for (const line of ['', '-- comment', 'SET lock_timeout = 0;', "SET client_encoding = 'UTF8';", '\\restrict abc123']) {
      expect(isIgnorableLine(line), line).toBe(true);
    }
    for (const line of ['SET role = postgres; DROP TABLE x;', 'select 1;', '\\! id', 'SET search_path = evil, public;']) {
      expect(isIgnorableLine(line), line).toBe(false);
    }
  });
});
