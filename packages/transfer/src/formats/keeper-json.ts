import { z } from 'zod';
import { decodeText } from '../csv/decode-text';
import { ImportFileError, type ImportFormat, type ParseResult, type SkippedRecord } from '../import-format';
import { emptyTransferItem, type TransferItem } from '../transfer-item';
import { hasContent, loginOrNote, nameFor } from './item-rules';
import { keeperCustomFields } from './keeper-fields';
import { parseJson } from './read-json';

/**
 * Keeper's JSON export: `{ shared_folders: [...], records: [...] }`. A record has a title, a
 * `$type` (login, bankCard, encryptedNotes, sshKeys, address, ...), login, password,
 * login_url, notes, custom_fields (keeper-fields.ts) and the folders it sits in, each
 * `{folder}` or `{shared_folder, folder}`, nested with backslashes.
 */
const text = z.string().nullish();
const recordSchema = z.looseObject({
  title: text,
  $type: text,
  login: text,
  password: text,
  login_url: text,
  notes: text,
  custom_fields: z.record(z.string(), z.unknown()).nullish(),
  folders: z.array(z.looseObject({ folder: text, shared_folder: text })).nullish(),
  references: z.record(z.string(), z.unknown()).nullish(),
});
const fileSchema = z.looseObject({ records: z.array(z.unknown()) });

export const keeperJsonFormat: ImportFormat = {
  id: 'keeper-json',
  label: 'Keeper (JSON)',
  detect(file) {
    const head = new TextDecoder().decode(file.bytes.subarray(0, 64 * 1024)).replace(/^\uFEFF/, '');
    if (!head.trimStart().startsWith('{') || !/"records"\s*:\s*\[/.test(head)) return 0;
    return /"(\$type|login_url|custom_fields|shared_folders)"\s*:/.test(head) ? 0.95 : 0;
  },
  async parse(file, options): Promise<ParseResult> {
    const parsed = fileSchema.safeParse(parseJson(decodeText(file)));
    if (!parsed.success) throw new ImportFileError('This is not a Keeper JSON export: it has no "records" list.');
    const items: TransferItem[] = [];
    const skipped: SkippedRecord[] = [];
    parsed.data.records.forEach((raw, index) => {
      const number = index + 1;
      const record = recordSchema.safeParse(raw);
      if (!record.success) {
        const where = record.error.issues[0]?.path.join('.') || 'record';
        throw new ImportFileError(
          `Record ${number}: its "${where}" is not what Keeper writes there; the file was changed after export. Export it from Keeper again and import that file.`,
        );
      }
      const item = itemOf(record.data);
      if (!hasContent(item, false)) {
        skipped.push({ line: number, reason: `Record ${number} ("${item.name}") has nothing in it but its title.` });
        return;
      }
      if (record.data.references && Object.keys(record.data.references).length > 0) {
        skipped.push({
          line: number,
          reason: `Record ${number} ("${item.name}"): its links to other Keeper records were not kept; the linked records are imported on their own.`,
        });
      }
      items.push(item);
    });
    options.onProgress?.(1);
    return { format: 'keeper-json', items, skipped };
  },
};

function itemOf(record: z.infer<typeof recordSchema>): TransferItem {
  const type = record.$type ?? '';
  const title = record.title ?? '';
  let item: TransferItem;
  if (type === 'bankCard') {
    item = emptyTransferItem('card', nameFor(title, [], ''));
    item.card = { holder: '', brand: '', number: '', code: '', expMonth: '', expYear: '' };
    item.notes = record.notes ?? '';
    item.fields.push(...(record.login ? [{ label: 'Username', kind: 'text' as const, value: record.login }] : []));
    item.fields.push(...(record.password ? [{ label: 'Password', kind: 'hidden' as const, value: record.password }] : []));
  } else {
    item = loginOrNote({
      name: title,
      username: record.login ?? '',
      password: record.password ?? '',
      urls: [record.login_url ?? ''],
      notes: record.notes ?? '',
      totp: '',
    });
    if (item.type === 'note' && Object.keys(record.custom_fields ?? {}).some((key) => /^\$(url|oneTimeCode)\b/.test(key)))
      item.type = 'login';
  }
  keeperCustomFields(item, record.custom_fields ?? {});
  if (!['', 'login', 'bankCard', 'encryptedNotes'].includes(type))
    item.fields.unshift({ label: 'Keeper type', kind: 'text', value: type });
  item.name = nameFor(title, item.urls, item.username);
  const paths = (record.folders ?? []).map(folderPath).filter((path) => path !== '');
  item.folder = paths[0] ?? null;
  item.tags = paths.slice(1);
  return item;
}

/** "Shared\\Team" + "Sub": nested with backslashes (a doubled one is a backslash in a name). */
function folderPath(entry: { folder?: string | null; shared_folder?: string | null }): string {
  return [entry.shared_folder, entry.folder]
    .flatMap((part) => splitPath(part ?? ''))
    .map((part) => part.replace(/\//g, '-').trim())
    .filter((part) => part !== '')
    .join('/');
}

function splitPath(path: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < path.length; i++) {
    if (path[i] !== '\\') current += path[i];
    else if (path[i + 1] === '\\') current += path[i++];
    else {
      parts.push(current);
      current = '';
    }
  }
  return [...parts, current];
}
