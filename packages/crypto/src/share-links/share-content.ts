import { attachmentMetadataProblem } from '../attachments/attachment-metadata';
import { utf8Decode, utf8Encode } from '../encoding';

/** The most characters a shared text (or each field of a shared item) may hold. */
export const SHARE_TEXT_MAX_CHARS = 10_000;

/** A copy of an item, as it was when shared: later edits of the item do not reach the link. */
export interface SharedItem {
  title: string;
  username: string;
  password: string;
  url: string;
  notes: string;
}

/**
 * A shared file's name, type and size (plaintext bytes): sealed as the share's content, so the
 * server sees none of them; the file's bytes follow as chunks (share-file.ts).
 */
export interface SharedFile {
  name: string;
  type: string;
  size: number;
}

export type ShareContent =
  { kind: 'text'; text: string } | { kind: 'item'; item: SharedItem } | { kind: 'file'; file: SharedFile };

const ITEM_FIELDS = ['title', 'username', 'password', 'url', 'notes'] as const;

function checkText(value: unknown): string {
  if (typeof value !== 'string' || value.length > SHARE_TEXT_MAX_CHARS) throw new TypeError('Not a shared text.');
  return value;
}

/** The content's bytes: JSON of exactly the known fields, so the recipient reads nothing else. */
export function encodeShareContent(content: ShareContent): Uint8Array {
  const checked = parseShareContent(content);
  return utf8Encode(JSON.stringify(checked));
}

/** Reads decrypted bytes back; anything but a known shape is refused (TypeError). */
export function decodeShareContent(bytes: Uint8Array): ShareContent {
  return parseShareContent(JSON.parse(utf8Decode(bytes)) as unknown);
}

function parseShareContent(value: unknown): ShareContent {
  if (typeof value !== 'object' || value === null) throw new TypeError('Not a shared content.');
  const record = value as Record<string, unknown>;
  if (record.kind === 'text') return { kind: 'text', text: checkText(record.text) };
  if (record.kind === 'item' && typeof record.item === 'object' && record.item !== null) {
    const item = record.item as Record<string, unknown>;
    const out = {} as SharedItem;
    for (const field of ITEM_FIELDS) out[field] = checkText(item[field] ?? '');
    return { kind: 'item', item: out };
  }
  if (record.kind === 'file' && typeof record.file === 'object' && record.file !== null) {
    const file = record.file as Record<string, unknown>;
    const out = { name: file.name, type: file.type, size: file.size } as SharedFile;
    if (attachmentMetadataProblem(out) !== null) throw new TypeError('Not a shared file.');
    return { kind: 'file', file: out };
  }
  throw new TypeError('Not a shared content.');
}
