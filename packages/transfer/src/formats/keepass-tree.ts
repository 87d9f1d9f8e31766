import type { SkippedRecord } from '../import-format';
import type { TransferField, TransferItem } from '../transfer-item';
import { fieldOf, hasContent, loginOrNote } from './item-rules';
import { keepassTotp } from './keepass-totp';

/**
 * A KeePass database as both of its readers see it (KeePass 2 XML through fast-xml-parser,
 * KDBX through kdbxweb): groups holding entries, each entry a list of named strings. One
 * mapping (keepassItems) then makes the items, so an XML export and the .kdbx it came from
 * import the same.
 */
export interface KeePassString {
  key: string;
  value: string;
  /** Protected in memory (KeePass's "protect" box): the value becomes a hidden field. */
  protected: boolean;
}

export interface KeePassEntry {
  strings: KeePassString[];
  tags: string[];
  createdAt: string | null;
  updatedAt: string | null;
  /** When the entry expires, if KeePass's "Expires" box is ticked; null when it never does. */
  expiresAt: string | null;
  /** Earlier versions of the entry, as the file lists them (oldest first in KeePass). */
  history: { password: string; updatedAt: string | null }[];
  /** Attached files; `bytes` null when the file names one it holds no data for (reported, not lost silently). */
  attachments: KeePassAttachment[];
}

export interface KeePassAttachment {
  name: string;
  bytes: Uint8Array | null;
}

export interface KeePassGroup {
  name: string;
  /** KeePass's recycle bin (Meta/RecycleBinUUID): its entries were deleted, so none is imported. */
  isRecycleBin: boolean;
  entries: KeePassEntry[];
  groups: KeePassGroup[];
}

/** Strings with a place of their own in a Lockit item; every other string becomes a custom field. */
const STANDARD_KEYS = new Set(['Title', 'UserName', 'Password', 'URL', 'Notes']);

/** KeePassXC and KeePass2Android keep extra addresses as KP2A_URL, KP2A_URL_1, ... */
const EXTRA_URL_KEY = /^KP2A_URL(_\d+)?$/;

/**
 * The items of a KeePass tree. The top group is the database itself ("Root", or the database's
 * name), so an entry's folder is the path below it: Root/Emails/WS → "Emails/WS". Entries are
 * numbered in file order for the skipped list (XML and KDBX have no useful line numbers).
 */
export function keepassItems(root: KeePassGroup): { items: TransferItem[]; skipped: SkippedRecord[] } {
  const items: TransferItem[] = [];
  const skipped: SkippedRecord[] = [];
  let number = 0;

  const visit = (group: KeePassGroup, path: string[]): void => {
    if (group.isRecycleBin) {
      const count = countEntries(group);
      // An empty recycle bin (KeePass makes one at the first delete, kdbxweb at creation) drops nothing.
      if (count > 0)
        skipped.push({
          line: null,
          reason: `The group "${group.name}" is KeePass's recycle bin: its ${count} deleted ${count === 1 ? 'entry was' : 'entries were'} not imported.`,
        });
      number += count;
      return;
    }
    for (const entry of group.entries) {
      number++;
      const item = entryToItem(entry, path.length === 0 ? null : path.join('/'), number, skipped);
      if (item) items.push(item);
    }
    for (const child of group.groups) visit(child, [...path, child.name.replace(/\//g, '-') || 'Group']);
  };
  visit(root, []);
  return { items, skipped };
}

function countEntries(group: KeePassGroup): number {
  return group.entries.length + group.groups.reduce((sum, child) => sum + countEntries(child), 0);
}

function entryToItem(entry: KeePassEntry, folder: string | null, number: number, skipped: SkippedRecord[]): TransferItem | null {
  const value = (key: string): string => entry.strings.find((string) => string.key === key)?.value ?? '';
  const extraUrls = entry.strings.filter((string) => EXTRA_URL_KEY.test(string.key) && string.value.trim() !== '');
  const totp = keepassTotp(entry.strings, value('Title'));

  const item = loginOrNote({
    name: value('Title'),
    username: value('UserName'),
    password: value('Password'),
    urls: [value('URL'), ...extraUrls.map((string) => string.value.trim())],
    notes: value('Notes'),
    totp: totp.uri,
  });
  const fields: TransferField[] = [];
  for (const string of entry.strings) {
    if (STANDARD_KEYS.has(string.key) || EXTRA_URL_KEY.test(string.key) || totp.usedKeys.has(string.key)) continue;
    fields.push(...fieldOf(string.key, string.value, string.protected ? 'hidden' : 'text'));
  }
  // Lockit items do not expire; the date is kept where the person sees it.
  if (entry.expiresAt !== null) fields.push({ label: 'Expires', kind: 'text', value: entry.expiresAt });
  item.fields = fields;
  item.folder = folder;
  item.tags = [...new Set(entry.tags.map((tag) => tag.trim()).filter((tag) => tag !== ''))];
  item.createdAt = entry.createdAt;
  item.updatedAt = entry.updatedAt;
  item.passwordHistory = passwordHistory(entry, item.password);

  const files = entry.attachments.flatMap((file) => (file.bytes === null ? [] : [{ name: file.name, bytes: file.bytes }]));
  // A title alone is no item (an "empty entry" of a real export): it is reported, not imported.
  // A title with a file is one: the file is what the entry keeps.
  if (!hasContent(item, false) && files.length === 0) {
    const what = value('Title').trim() === '' ? 'is empty' : `("${item.name}") has nothing in it but its title`;
    skipped.push({ line: number, reason: `Entry ${number} ${what} (no user name, password, address, notes or fields).` });
    return null;
  }
  for (const file of entry.attachments) {
    if (file.bytes !== null) continue;
    skipped.push({
      line: number,
      reason: `Entry ${number} ("${item.name}"): the attached file "${file.name}" was not imported; the file holds no data for it.`,
    });
  }
  if (files.length > 0) item.attachments = files;
  return item;
}

/** Earlier passwords, newest first, each once, without the current one. */
function passwordHistory(entry: KeePassEntry, current: string): TransferItem['passwordHistory'] {
  const seen = new Set([current]);
  const history: TransferItem['passwordHistory'] = [];
  for (const version of [...entry.history].reverse()) {
    if (version.password === '' || seen.has(version.password)) continue;
    seen.add(version.password);
    history.push({ password: version.password, changedAt: version.updatedAt });
  }
  return history;
}
