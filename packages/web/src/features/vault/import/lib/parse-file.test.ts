import { ImportFileError, ImportPasswordError } from '@lockit/transfer';
import { describe, expect, it } from 'vitest';
import { parseRequest, resultOf } from './parse-file';
import { parseInWorker } from './parse-in-worker';

const file = (text: string, name = 'export.json') => ({ name, bytes: new TextEncoder().encode(text) });

const BITWARDEN = JSON.stringify({
  encrypted: false,
  folders: [],
  items: [{ type: 1, name: 'Mail', favorite: false, notes: null, login: { username: 'ada', password: 'p,"w`\\', uris: [] } }],
});

describe('parsing an import off the page', () => {
  it('answers a parsed file as data the page gets back whole', async () => {
    const answer = await parseRequest({ file: file(BITWARDEN), format: 'bitwarden-json' }, () => {});
    expect(answer.kind).toBe('done');
    const result = resultOf(answer);
    expect(result.items.map((item) => [item.name, item.username, item.password])).toEqual([['Mail', 'ada', 'p,"w`\\']]);
  });

  it('carries a bad file’s message and line across, as the parser’s own error', async () => {
    const answer = await parseRequest({ file: file('{"encrypted": false,\n"items": ['), format: 'bitwarden-json' }, () => {});
    expect(answer.kind).toBe('file-error');
    expect(() => resultOf(answer)).toThrow(ImportFileError);
    expect(() => resultOf(answer)).toThrow(/^Line 2: /);
  });

  it('carries a password request across, so the screen asks for it', async () => {
    expect(() =>
      resultOf({ kind: 'password-error', reason: 'missing', message: 'This file is protected by a password.' }),
    ).toThrow(ImportPasswordError);
  });

  it("carries a format's own password message across (a KDBX that may need its key file)", async () => {
    const keyFileHint = 'That password does not open this database. If the database also needs a key file, choose it.';
    expect(() => resultOf({ kind: 'password-error', reason: 'wrong', message: keyFileHint })).toThrow(keyFileHint);
  });

  it('parses on the page, the same way, where no worker can start', async () => {
    expect(typeof Worker).toBe('undefined');
    const progress: number[] = [];
    const result = await parseInWorker({ file: file(BITWARDEN), format: 'bitwarden-json' }, (fraction) =>
      progress.push(fraction),
    );
    expect(result.items).toHaveLength(1);
  });
});
