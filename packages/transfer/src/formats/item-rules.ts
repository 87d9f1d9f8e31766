import type { EntryType } from '@lockit/contract';
import { emptyTransferItem, type TransferField, type TransferItem } from '../transfer-item';

/**
 * Rules every importer applies (docs/decisions/0034-import-formats.md), in one place so each
 * format says the same thing the same way.
 */

/** The host of a web address, with or without a scheme ("example.com/login" → "example.com"); '' if none. */
export function hostOf(url: string): string {
  const trimmed = url.trim();
  if (trimmed === '') return '';
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
  try {
    return new URL(withScheme).hostname;
  } catch {
    return '';
  }
}

/** The item's name: the file's, else the first address's host, else the user name, else "Untitled". */
export function nameFor(name: string, urls: readonly string[], username: string): string {
  const given = name.trim();
  if (given !== '') return given;
  for (const url of urls) {
    const host = hostOf(url);
    if (host !== '') return host;
  }
  if (username.trim() !== '') return username.trim();
  return 'Untitled';
}

/**
 * A login built from a flat record. Without a user name, password, address or TOTP it is a
 * secure note (a row holding only a note is a note, not an empty login). Names fall back.
 */
export function loginOrNote(values: {
  name: string;
  username: string;
  password: string;
  urls: string[];
  notes: string;
  totp: string;
}): TransferItem {
  const urls = values.urls.filter((url) => url.trim() !== '');
  const isLogin = values.username !== '' || values.password !== '' || urls.length > 0 || values.totp !== '';
  const type: EntryType = isLogin ? 'login' : 'note';
  const item = emptyTransferItem(type, nameFor(values.name, urls, values.username));
  item.username = values.username;
  item.password = values.password;
  item.urls = urls;
  item.notes = values.notes;
  item.totp = values.totp.trim();
  return item;
}

/** Whether an item carries anything at all beyond a fallback name (an all-empty row does not). */
export function hasContent(item: TransferItem, nameGiven: boolean): boolean {
  return (
    nameGiven ||
    item.username !== '' ||
    item.password !== '' ||
    item.urls.length > 0 ||
    item.notes !== '' ||
    item.totp !== '' ||
    item.fields.length > 0 ||
    item.card !== null ||
    item.identity !== null
  );
}

/** A custom field, or nothing for an empty value (an empty value has nothing to lose). */
export function fieldOf(label: string, value: string, kind: TransferField['kind'] = 'text'): TransferField[] {
  return value === '' ? [] : [{ label: label.trim() === '' ? 'Field' : label.trim(), kind, value }];
}

/** "1", "true", "yes", "x" (any case) as true: how exports spell a favourite flag. */
export function isTruthy(value: string): boolean {
  return ['1', 'true', 'yes', 'y', 'x', '*'].includes(value.trim().toLowerCase());
}

/** An ISO date from an ISO string or Unix seconds/milliseconds; null for anything else. */
export function isoDate(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) {
    const ms = value < 1e11 ? value * 1000 : value;
    const date = new Date(ms);
    return Number.isNaN(date.getTime()) ? null : date.toISOString();
  }
  if (typeof value === 'string' && value.trim() !== '') {
    if (/^\d+$/.test(value.trim())) return isoDate(Number(value.trim()));
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? null : date.toISOString();
  }
  return null;
}

/**
 * The table's value for a key the file chose, or undefined. A plain `table[key]` would answer
 * "constructor" or "__proto__" with Object's own members, so a cell naming one would give an
 * item a function or an object where a string belongs.
 */
export function ownValue<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
