import Papa from 'papaparse';
import { IDENTITY_FIELDS } from '@lockit/contract';
import type { TransferItem } from '../transfer-item';
import { TAGS_FIELD_LABEL } from './bitwarden-json';

/**
 * The two plain CSV exports (decision 0039).
 *
 * Bitwarden CSV: Bitwarden's own header and rules (one row per login or secure note; several
 * web addresses comma-joined in login_uri; custom fields as "label: value" lines; favourite
 * "1"), values written exactly: it is meant for Bitwarden's importer, and a leading ' would
 * change a password that starts with "=". Bitwarden's own export does not neutralise formulas
 * either. Cards and identities have no columns there: they are counted and left out (the UI
 * says so and points to the JSON).
 *
 * Generic CSV: one row per item of any type, every field its own column, meant to be read in
 * a spreadsheet, so a cell starting with = + - @ (or a tab or carriage return) gets a leading
 * ' and cannot run as a formula.
 */

export const BITWARDEN_CSV_HEADER = [
  'folder',
  'favorite',
  'type',
  'name',
  'notes',
  'fields',
  'reprompt',
  'login_uri',
  'login_username',
  'login_password',
  'login_totp',
] as const;

/** Custom fields (and tags, which Bitwarden lacks) as Bitwarden's CSV writes them: "label: value" lines. */
function fieldLines(item: TransferItem): string {
  const lines = item.fields.map((field) => `${field.label}: ${field.value}`);
  if (item.tags.length > 0) lines.push(`${TAGS_FIELD_LABEL}: ${item.tags.join(', ')}`);
  return lines.join('\n');
}

export interface BitwardenCsvResult {
  csv: string;
  /** Cards and identities, which Bitwarden's CSV cannot hold. */
  leftOut: number;
}

export function toBitwardenCsv(items: readonly TransferItem[]): BitwardenCsvResult {
  const rows: string[][] = [];
  let leftOut = 0;
  for (const item of items) {
    if (item.type !== 'login' && item.type !== 'note') {
      leftOut++;
      continue;
    }
    const login = item.type === 'login';
    rows.push([
      item.folder ?? '',
      item.favorite ? '1' : '',
      login ? 'login' : 'note',
      item.name,
      item.notes,
      fieldLines(item),
      '0',
      login ? item.urls.join(',') : '',
      login ? item.username : '',
      login ? item.password : '',
      login ? item.totp : '',
    ]);
  }
  return { csv: Papa.unparse({ fields: [...BITWARDEN_CSV_HEADER], data: rows }, { escapeFormulae: false }), leftOut };
}

/**
 * What a spreadsheet may run. Papaparse's own `escapeFormulae: true` pattern ends in `.*$`,
 * which misses a multi-line cell (notes starting with "="): only the first character counts.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

const IDENTITY_COLUMNS = [...IDENTITY_FIELDS, 'ssn', 'passport', 'license'] as const;

export const GENERIC_CSV_HEADER = [
  'type',
  'name',
  'username',
  'password',
  'urls',
  'notes',
  'totp',
  'custom_fields',
  'tags',
  'folder',
  'favorite',
  'card_holder',
  'card_brand',
  'card_number',
  'card_code',
  'card_exp_month',
  'card_exp_year',
  ...IDENTITY_COLUMNS.map((name) => `identity_${name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}`),
  'password_history',
  'created',
  'updated',
  'in_trash_since',
];

/** Every item as one row; lists (web addresses, tags, custom fields, old passwords) as lines of one cell. */
export function toGenericCsv(items: readonly TransferItem[]): string {
  const rows = items.map((item) => {
    const card = item.card;
    const identity = item.identity;
    return [
      item.type,
      item.name,
      item.username,
      item.password,
      item.urls.join('\n'),
      item.notes,
      item.totp,
      item.fields.map((field) => `${field.label}: ${field.value}`).join('\n'),
      item.tags.join('\n'),
      item.folder ?? '',
      item.favorite ? 'yes' : 'no',
      card?.holder ?? '',
      card?.brand ?? '',
      card?.number ?? '',
      card?.code ?? '',
      card?.expMonth ?? '',
      card?.expYear ?? '',
      ...IDENTITY_COLUMNS.map((name) => identity?.[name] ?? ''),
      item.passwordHistory
        .map((entry) => (entry.changedAt ? `${entry.changedAt}: ${entry.password}` : entry.password))
        .join('\n'),
      item.createdAt ?? '',
      item.updatedAt ?? '',
      item.trashedAt ?? '',
    ];
  });
  return Papa.unparse({ fields: GENERIC_CSV_HEADER, data: rows }, { escapeFormulae: FORMULA_START });
}
