import { backupSealer, ImportFileError, ImportPasswordError, type BackupContents } from '@lockit/transfer';
import { describe, expect, it } from 'vitest';
import { countPlan, planImport } from './import-plan';
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

  it('reads an encrypted Lockit backup with files (version 2): each item comes with its files, counted in the preview', async () => {
    const scan = new Uint8Array(150_000).map((_, i) => (i * 7) & 0xff);
    const item = {
      type: 'login' as const,
      name: 'Cedar Bank',
      username: 'ada',
      password: 'c3dar!',
      urls: ['https://cedar.example'],
      notes: '',
      totp: '',
      fields: [],
      card: null,
      identity: null,
      tags: [],
      folder: null,
      favorite: false,
      createdAt: null,
      updatedAt: null,
      trashedAt: null,
      history: [],
    };
    const contents: BackupContents = {
      app: 'lockit',
      version: 2,
      exportedAt: '2026-11-28T10:00:00.000Z',
      includesTrash: false,
      folders: [],
      items: [
        {
          ...item,
          files: [{ name: 'statement.pdf', size: scan.length, type: 'application/pdf', createdAt: '2026-11-27T10:00:00.000Z' }],
        },
        { ...item, name: 'No files', urls: [] },
      ],
    };
    const seal = await backupSealer('a long backup password', {
      kdf: { algorithm: 'argon2id', memoryKiB: 19 * 1024, iterations: 2, parallelism: 1 },
    });
    const pieces: Uint8Array[] = [];
    for await (const piece of seal.withFiles(contents, async function* () {
      yield scan;
    }))
      pieces.push(piece);
    const bytes = new Uint8Array(pieces.reduce((sum, piece) => sum + piece.length, 0));
    pieces.reduce((at, piece) => (bytes.set(piece, at), at + piece.length), 0);

    const answer = await parseRequest(
      { file: { name: 'lockit-backup-2026-11-28.lockit', bytes }, format: 'lockit-backup', password: 'a long backup password' },
      () => {},
    );
    const result = resultOf(answer);
    expect(result.items.map((i) => [i.name, i.attachments?.map((file) => [file.name, file.bytes.length])])).toEqual([
      ['Cedar Bank', [['statement.pdf', 150_000]]],
      ['No files', undefined],
    ]);
    expect(result.items[0]!.attachments![0]!.bytes).toEqual(scan);
    const plan = await planImport(result, [], 'Imported from Lockit 2026-11-28');
    expect(countPlan(plan, 'skip', new Map()).files).toBe(1);
  });
});
