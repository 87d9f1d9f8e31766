/**
 * Secret references: `lockit://FOLDER/ITEM/FIELD`, or `lockit://ITEM/FIELD` for an item in any
 * folder (ITEM may be its id). Each part is percent-decoded, so a "/" inside a name is written
 * %2F. A nested folder is its whole path: `lockit://Work/Servers/db/password`.
 *
 * @typedef {{ folder: string | null, item: string, field: string }} SecretRef
 */

export const REF_PREFIX = 'lockit://';

/**
 * A reference inside a template: `{{ lockit://… }}`, spaces around it optional. The reference
 * runs to the closing braces, so item names with spaces need no escaping
 * (`{{ lockit://Guest Wifi/password }}`); it ends at a line's end.
 */
export const TEMPLATE_REF = /\{\{[ \t]*(lockit:\/\/[^}\n]*?)[ \t]*\}\}/g;

/** @param {string} text */
export function isRef(text) {
  return text.startsWith(REF_PREFIX);
}

/**
 * @param {string} text
 * @returns {SecretRef}
 */
export function parseRef(text) {
  if (!isRef(text)) throw new RefSyntaxError(`"${text}" is not a lockit:// reference.`);
  const parts = text.slice(REF_PREFIX.length).split('/');
  if (parts.length < 2 || parts.some((part) => part === '')) {
    throw new RefSyntaxError(`"${text}" is not a reference: write lockit://FOLDER/ITEM/FIELD or lockit://ITEM/FIELD.`);
  }
  let decoded;
  try {
    decoded = parts.map((part) => decodeURIComponent(part));
  } catch {
    throw new RefSyntaxError(`"${text}" has a malformed %-escape.`);
  }
  const field = /** @type {string} */ (decoded.pop());
  const item = /** @type {string} */ (decoded.pop());
  return { folder: decoded.length === 0 ? null : decoded.join('/'), item, field };
}

export class RefSyntaxError extends Error {
  /** @override */
  name = 'RefSyntaxError';
}
