import { DOCUMENT_LIMITS } from '@lockit/contract';
import type { TransferItem } from '@lockit/transfer';
import { checkEntryPlaintext, emptyDraft, EntryDraftError, entryPlaintext, parseSshPrivateKey } from '@lockit/client-core';
import type { DraftField, EntryDraft } from '@lockit/client-core';

export type DraftOutcome =
  | {
      ok: true;
      draft: EntryDraft;
      /** Labels of custom fields the item got that the file did not name as such. */ keptAsFields: string[];
    }
  | { ok: false; reason: string };

const field = (label: string, value: string, kind: DraftField['kind'] = 'text'): DraftField => ({
  id: crypto.randomUUID(),
  label,
  kind,
  value,
});

/**
 * One imported item as the vault's editor would hold it, tagged with the import's tag, in
 * `folderId`. Nothing the file holds is dropped:
 *
 * - values the item's type has no place for (a note's user name or web address, a card's
 *   TOTP seed) become custom fields, secret ones hidden;
 * - the file's password history becomes hidden custom fields ("Earlier password (date)"):
 *   the server writes history itself on each save and takes none for a new item
 *   (decision 0037);
 * - card number and code and identity numbers go where the editor puts them (details, sealed
 *   apart from the list).
 *
 * The result is checked against the same caps as a save (checkEntryPlaintext): an item past
 * one is refused with the reason, never cut short.
 */
export function transferToDraft(given: TransferItem, tag: string, folderId: string | null): DraftOutcome {
  const item = sshKeyOrNote(given);
  const login = item.type === 'login';
  const keptAsFields: string[] = [];
  const extra: DraftField[] = [];
  const keep = (label: string, value: string, kind: DraftField['kind'] = 'text') => {
    if (value === '') return;
    extra.push(field(label, value, kind));
    keptAsFields.push(label);
  };
  if (!login) {
    keep('Username', item.username);
    keep('Password', item.password, 'hidden');
    item.urls.forEach((url, i) => keep(item.urls.length > 1 ? `Website ${i + 1}` : 'Website', url));
    keep('One-time code secret', item.totp, 'hidden');
  }
  if (item.card && item.type !== 'card') {
    keep('Card holder', item.card.holder);
    keep('Card number', item.card.number, 'hidden');
    keep('Card security code', item.card.code, 'hidden');
  }
  for (const earlier of item.passwordHistory) {
    keep(
      earlier.changedAt ? `Earlier password (${earlier.changedAt.slice(0, 10)})` : 'Earlier password',
      earlier.password,
      'hidden',
    );
  }
  const fields = [...item.fields.map((f) => field(f.label, f.value, f.kind)), ...extra];
  if (fields.length > DOCUMENT_LIMITS.customFields) {
    return {
      ok: false,
      reason: `It has ${fields.length} custom fields; an item can have at most ${DOCUMENT_LIMITS.customFields}.`,
    };
  }

  const draft: EntryDraft = {
    type: item.type,
    serviceName: item.name.trim() === '' ? 'Untitled' : item.name,
    username: login ? item.username : '',
    password: login ? item.password : '',
    urls: login ? [...item.urls] : [],
    ...(login && item.urlRules && { urlRules: { ...item.urlRules } }),
    notes: item.notes,
    totp: login ? item.totp : '',
    fields,
    card: item.type === 'card' ? { ...(item.card ?? emptyDraft('card').card!) } : null,
    identity: item.type === 'identity' ? { ...(item.identity ?? emptyDraft('identity').identity!) } : null,
    sshKey:
      item.type === 'sshKey' && item.sshKey
        ? { privateKey: item.sshKey.privateKey, comment: item.sshKey.publicKey.split(' ').slice(2).join(' ') }
        : null,
    tags: [...item.tags, tag],
    folderId,
    favorite: item.favorite,
  };
  try {
    checkEntryPlaintext(entryPlaintext(draft));
  } catch (error) {
    if (error instanceof EntryDraftError) return { ok: false, reason: error.message };
    throw error;
  }
  return { ok: true, draft, keptAsFields };
}

/**
 * An SSH key item whose private key the vault can take stays one; any other (passphrase-protected,
 * a kind Lockit does not sign with) becomes a secure note keeping the key in a hidden field and
 * its public half in text fields, so nothing the file holds is dropped.
 */
function sshKeyOrNote(item: TransferItem): TransferItem {
  if (item.type !== 'sshKey') return item;
  const key = item.sshKey;
  try {
    if (key) {
      parseSshPrivateKey(key.privateKey);
      return item;
    }
  } catch {
    // Kept as a note below.
  }
  const fields = [...item.fields];
  if (key?.privateKey) fields.push({ label: 'Private key', kind: 'hidden', value: key.privateKey });
  if (key?.publicKey) fields.push({ label: 'Public key', kind: 'text', value: key.publicKey });
  if (key?.fingerprint) fields.push({ label: 'Fingerprint', kind: 'text', value: key.fingerprint });
  return { ...item, type: 'note', sshKey: null, fields };
}
