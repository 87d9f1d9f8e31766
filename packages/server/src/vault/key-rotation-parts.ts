import { ACCOUNT_DOCUMENT_MAX_CIPHERTEXT, type KeyRotationPart } from '@lockit/contract';
import type { KeyRotationPartRow, PartKind } from '../db/repositories/key-rotations-repository';
import { versionKey, type EntryCiphertexts } from '../db/repositories/rotated-vault-repository';
import { HttpError } from '../http/http-error';

/** The item keys of one uploaded part, by kind. */
export type PartKeys = Record<PartKind, string[]>;

/** How each kind is named in messages, one and many. */
const NAMES: Record<PartKind, [string, string]> = {
  entry: ['entry', 'entries'],
  version: ['version', 'versions'],
  folder: ['folder', 'folders'],
  document: ['document', 'documents'],
  attachment: ['file', 'files'],
};

/**
 * The staged rows of one uploaded part, and their keys by kind. Ids are stored lower case,
 * as the vault stores them. Throws a 400, before anything is touched, when a key appears
 * twice in the part or a document is larger than its kind allows.
 */
export function partRows(rotationId: string, part: KeyRotationPart): { rows: KeyRotationPartRow[]; keys: PartKeys } {
  const rows: KeyRotationPartRow[] = [];
  const keys: PartKeys = { entry: [], version: [], folder: [], document: [], attachment: [] };
  const add = (kind: PartKind, itemKey: string, payload: object) => {
    keys[kind].push(itemKey);
    rows.push({ rotation_id: rotationId, kind, item_key: itemKey, payload: JSON.stringify(payload) });
  };
  for (const entry of part.entries ?? []) add('entry', entry.id.toLowerCase(), ciphertextsOf(entry));
  for (const version of part.versions ?? []) {
    add('version', versionKey(version.entryId.toLowerCase(), version.revision), ciphertextsOf(version));
  }
  for (const folder of part.folders ?? []) add('folder', folder.id.toLowerCase(), { name: folder.name });
  for (const [index, document] of (part.documents ?? []).entries()) {
    const cap = ACCOUNT_DOCUMENT_MAX_CIPHERTEXT[document.kind];
    if (document.document.length > cap) {
      throw new HttpError(400, `documents.${index}.document must be at most ${cap} characters for ${document.kind}`);
    }
    add('document', document.kind, { ciphertext: document.document });
  }
  for (const file of part.attachments ?? []) {
    add('attachment', attachmentKey(file.entryId.toLowerCase(), file.id.toLowerCase()), { wrappedKey: file.wrappedKey });
  }
  for (const kind of Object.keys(keys) as PartKind[]) {
    const twice = keys[kind].find((key, index) => keys[kind].indexOf(key) !== index);
    if (twice !== undefined) throw new HttpError(400, `This part holds ${NAMES[kind][0]} ${twice} twice.`);
  }
  return { rows, keys };
}

type WireCiphertexts = {
  serviceName: string;
  username: string;
  password: string;
  url?: string | null;
  notes?: string | null;
  overview?: string | null;
  details?: string | null;
};

function ciphertextsOf(item: WireCiphertexts): EntryCiphertexts {
  return {
    service_name: item.serviceName,
    username: item.username,
    password: item.password,
    url: item.url ?? null,
    notes: item.notes ?? null,
    overview: item.overview ?? null,
    details: item.details ?? null,
  };
}

/** A staged entry's or version's payload, as partRows wrote it. */
export function entryPayload(payload: string): EntryCiphertexts {
  return JSON.parse(payload) as EntryCiphertexts;
}

export function folderPayload(payload: string): { name: string } {
  return JSON.parse(payload) as { name: string };
}

export function documentPayload(payload: string): { ciphertext: string } {
  return JSON.parse(payload) as { ciphertext: string };
}

export function attachmentPayload(payload: string): { wrappedKey: string } {
  return JSON.parse(payload) as { wrappedKey: string };
}

/**
 * The item key of one file: its entry and its id, so the staged set matches the account's only
 * when every file is re-wrapped for the entry it belongs to (the wrap binds both).
 */
export function attachmentKey(entryId: string, id: string): string {
  return `${entryId}:${id}`;
}

/** The entry id and file id an attachment's item key names (a file id is a UUID: no colon). */
export function parseAttachmentKey(key: string): { entryId: string; id: string } {
  const at = key.lastIndexOf(':');
  return { entryId: key.slice(0, at), id: key.slice(at + 1) };
}

/** The entry id and revision a version's item key names. */
export function parseVersionKey(key: string): { entryId: string; revision: number } {
  const at = key.lastIndexOf(':');
  return { entryId: key.slice(0, at), revision: Number(key.slice(at + 1)) };
}

/** "Not in your vault: entry 1f…, version 1f…:3 and 2 more." for the keys given, by kind. */
export function unknownItemsMessage(unknown: PartKeys): string {
  const named = (Object.keys(unknown) as PartKind[]).flatMap((kind) => unknown[kind].map((key) => `${NAMES[kind][0]} ${key}`));
  const shown = named.slice(0, 5).join(', ');
  const more = named.length > 5 ? ` and ${named.length - 5} more` : '';
  return `Not in your vault, so nothing of this part was staged: ${shown}${more}.`;
}

/** "12 entries, 1 version" for the non-zero counts, or undefined when all are zero. */
export function describeCounts(counts: Record<PartKind, number>): string | undefined {
  const parts = (Object.keys(counts) as PartKind[])
    .filter((kind) => counts[kind] > 0)
    .map((kind) => `${counts[kind]} ${NAMES[kind][counts[kind] === 1 ? 0 : 1]}`);
  return parts.length > 0 ? parts.join(', ') : undefined;
}
