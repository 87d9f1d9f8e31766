import { z } from 'zod';
import { decodeText } from '../csv/decode-text';
import { ImportFileError, type ImportFormat, type ParseResult, type SkippedRecord } from '../import-format';
import { emptyTransferItem, type TransferField, type TransferItem } from '../transfer-item';
import { fieldOf, hasContent, isoDate, nameFor } from './item-rules';
import { parseJson } from './read-json';

/**
 * Enpass 6's JSON export: `{ folders: [{uuid, title, parent_uuid}], items: [...] }`. An item
 * has a title, a category and template_type ("login.default", "creditcard.default", ...),
 * favorite/archived/trashed flags (0 or 1), Unix-second times, a note, the uuids of its folders
 * and a list of fields, each `{label, type, value, sensitive, deleted}`. Field types say what a
 * value is: username, email, password, url, totp, ".Android#" (an app), ccName, ccNumber,
 * ccCvc, ccExpiry, ccType, section (a heading, no value), or plain text.
 */
const text = z.string().nullish();
const flag = z.union([z.number(), z.boolean()]).nullish();

const fieldSchema = z.looseObject({
  label: text,
  type: text,
  value: z.union([z.string(), z.number(), z.boolean()]).nullish(),
  sensitive: flag,
  deleted: flag,
});

const itemSchema = z.looseObject({
  title: text,
  category: text,
  template_type: text,
  note: text,
  favorite: flag,
  archived: flag,
  trashed: flag,
  createdAt: z.number().nullish(),
  updated_at: z.number().nullish(),
  folders: z.array(z.string()).nullish(),
  fields: z.array(fieldSchema).nullish(),
  attachments: z.array(z.unknown()).nullish(),
});

const fileSchema = z.looseObject({
  folders: z.array(z.looseObject({ uuid: z.string(), title: text, parent_uuid: text })).nullish(),
  items: z.array(z.unknown()),
});

type EnpassItem = z.infer<typeof itemSchema>;

const on = (value: number | boolean | null | undefined): boolean => value === true || (typeof value === 'number' && value > 0);
const str = (value: string | number | boolean | null | undefined): string =>
  value === null || value === undefined ? '' : String(value);

export const enpassJsonFormat: ImportFormat = {
  id: 'enpass-json',
  label: 'Enpass (JSON)',
  detect(file) {
    const head = new TextDecoder().decode(file.bytes.subarray(0, 64 * 1024)).replace(/^\uFEFF/, '');
    if (!head.trimStart().startsWith('{') || !/"items"\s*:/.test(head)) return 0;
    return /"template_type"\s*:/.test(head) && /"sensitive"\s*:/.test(head) ? 0.95 : 0;
  },
  async parse(file, options): Promise<ParseResult> {
    const parsed = fileSchema.safeParse(parseJson(decodeText(file)));
    if (!parsed.success) throw new ImportFileError('This is not an Enpass JSON export: it has no "items" list.');
    const folders = folderPaths(parsed.data.folders ?? []);
    const items: TransferItem[] = [];
    const skipped: SkippedRecord[] = [];
    parsed.data.items.forEach((raw, index) => {
      const number = index + 1;
      const input = itemSchema.safeParse(raw);
      if (!input.success) {
        const where = input.error.issues[0]?.path.join('.') || 'item';
        throw new ImportFileError(
          `Item ${number}: its "${where}" is not what Enpass writes there; the file was changed after export. Export it from Enpass again and import that file.`,
        );
      }
      const title = str(input.data.title) || 'Untitled';
      if (on(input.data.trashed)) {
        skipped.push({ line: number, reason: `Item ${number} ("${title}") is in Enpass's trash: not imported.` });
        return;
      }
      const item = itemOf(input.data, folders, skipped, number);
      if (hasContent(item, false)) items.push(item);
      else skipped.push({ line: number, reason: `Item ${number} ("${title}") has nothing in it but its title.` });
    });
    options.onProgress?.(1);
    return { format: 'enpass-json', items, skipped };
  },
};

/** Each folder's path, nested by parent_uuid ("Work/Banking"); a loop or a missing parent ends the path. */
function folderPaths(folders: { uuid: string; title?: string | null; parent_uuid?: string | null }[]): Map<string, string> {
  const byId = new Map(folders.map((folder) => [folder.uuid, folder]));
  const paths = new Map<string, string>();
  for (const folder of folders) {
    const parts: string[] = [];
    const seen = new Set<string>();
    for (let at: typeof folder | undefined = folder; at && !seen.has(at.uuid); at = byId.get(at.parent_uuid ?? '')) {
      seen.add(at.uuid);
      parts.unshift((at.title ?? '').trim().replace(/\//g, '-') || 'Folder');
    }
    paths.set(folder.uuid, parts.join('/'));
  }
  return paths;
}

function itemOf(input: EnpassItem, folders: Map<string, string>, skipped: SkippedRecord[], number: number): TransferItem {
  const template = str(input.template_type);
  const allFields = input.fields ?? [];
  const fields = allFields.filter((field) => !on(field.deleted) && field.type !== 'section' && str(field.value) !== '');
  const hasPassword = fields.some((field) => field.type === 'password');
  const kind = /^(login|password)\./.test(template)
    ? 'login'
    : template.startsWith('creditcard.')
      ? 'card'
      : !template.startsWith('identity.') && hasPassword
        ? 'login'
        : 'note';
  const item = emptyTransferItem(kind, '');
  const extra: TransferField[] = [];
  if (kind === 'card') item.card = { holder: '', brand: '', number: '', code: '', expMonth: '', expYear: '' };
  for (const field of fields) {
    const value = str(field.value);
    if (kind === 'login' && loginField(item, field.type ?? '', value)) continue;
    if (item.card && cardField(item.card, field.type ?? '', value)) continue;
    extra.push(...fieldOf(str(field.label) || str(field.type), value, on(field.sensitive) ? 'hidden' : 'text'));
  }
  const category = str(input.category);
  if (!['', 'login', 'password', 'creditcard', 'note'].includes(category))
    extra.unshift({ label: 'Enpass category', kind: 'text', value: category });
  item.fields = extra;
  item.notes = str(input.note);
  item.name = nameFor(str(input.title), item.urls, item.username);
  item.favorite = on(input.favorite);
  item.createdAt = isoDate(input.createdAt ?? null);
  item.updatedAt = isoDate(input.updated_at ?? null);
  // Enpass lets an item sit in several folders: the first is its folder, the others tags.
  const paths = (input.folders ?? []).map((id) => folders.get(id)).filter((path): path is string => path !== undefined);
  item.folder = paths[0] ?? null;
  item.tags = paths.slice(1);
  if (on(input.archived)) item.tags.push('Enpass archive');
  const deleted = allFields.filter((field) => on(field.deleted) && str(field.value) !== '').length;
  if (deleted > 0) {
    skipped.push({
      line: number,
      reason: `Item ${number} ("${item.name}"): ${deleted} field${deleted === 1 ? '' : 's'} deleted in Enpass ${deleted === 1 ? 'was' : 'were'} not imported.`,
    });
  }
  const attachments = (input.attachments ?? []).length;
  if (attachments > 0) {
    skipped.push({
      line: number,
      reason: `Item ${number} ("${item.name}"): ${attachments} attached file${attachments === 1 ? ' was' : 's were'} not imported; Lockit does not hold attachments.`,
    });
  }
  return item;
}

/** A login's own fields; false when the value belongs in a custom field instead. */
function loginField(item: TransferItem, type: string, value: string): boolean {
  if ((type === 'username' || type === 'email') && item.username === '') item.username = value;
  else if (type === 'password' && item.password === '') item.password = value;
  else if (type === 'totp' && item.totp === '') item.totp = value.trim();
  else if (type === 'url' || type === '.Android#') item.urls.push(value.trim());
  else return false;
  return true;
}

/** A card's own fields; an expiry that is not MM/YY or MM/YYYY stays a custom field. */
function cardField(card: NonNullable<TransferItem['card']>, type: string, value: string): boolean {
  if (type === 'ccName' && card.holder === '') card.holder = value;
  else if (type === 'ccNumber' && card.number === '') card.number = value.replace(/\s/g, '');
  else if (type === 'ccCvc' && card.code === '') card.code = value;
  else if (type === 'ccType' && card.brand === '') card.brand = value;
  else if (type === 'ccExpiry' && card.expMonth === '') {
    const match = /^(\d{1,2})\s*\/\s*(\d{2}|\d{4})$/.exec(value.trim());
    if (!match) return false;
    card.expMonth = match[1]!.padStart(2, '0');
    card.expYear = match[2]!.length === 2 ? `20${match[2]!}` : match[2]!;
  } else return false;
  return true;
}
