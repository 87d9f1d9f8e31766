import { utf8Decode, utf8Encode } from '../encoding';
import { openSealed, sealPadded } from '../sealed-text';
import { checkShareId } from './share-key';

/**
 * What the owner's list says of a link: the item it was made from (null for none) and a short
 * title. Only the owner reads it: it is sealed under the vault key, never the link's key.
 */
export interface ShareLabel {
  itemId: string | null;
  title: string;
}

/** Longest title kept in a label (the item's name is cut there). */
export const SHARE_LABEL_TITLE_MAX_CHARS = 200;

const labelAad = (id: string) => utf8Encode(`lockit/v1/share-label|${checkShareId(id)}`);

/**
 * Seals the owner's label of share `id` under the vault key. Security invariant: bound to the
 * share id (its AAD), so a server that swaps two links' labels is caught, and padded like every
 * other text, so its length shows only a size bucket. The recipient's page never sees it.
 */
export function sealShareLabel(vaultKey: CryptoKey, id: string, label: ShareLabel): Promise<string> {
  const title = label.title.slice(0, SHARE_LABEL_TITLE_MAX_CHARS);
  return sealPadded(vaultKey, utf8Encode(JSON.stringify({ itemId: label.itemId, title })), labelAad(id));
}

/**
 * The label of share `id`, or null when it does not open under this vault key (sealed before a
 * key rotation, or changed by the server) or is not a label this client wrote.
 */
export async function openShareLabel(vaultKey: CryptoKey, id: string, sealed: string): Promise<ShareLabel | null> {
  try {
    const parsed: unknown = JSON.parse(utf8Decode(await openSealed(vaultKey, sealed, labelAad(id))));
    if (typeof parsed !== 'object' || parsed === null) return null;
    const { itemId, title } = parsed as Record<string, unknown>;
    if ((itemId !== null && typeof itemId !== 'string') || typeof title !== 'string') return null;
    if (title.length > SHARE_LABEL_TITLE_MAX_CHARS) return null;
    return { itemId, title };
  } catch {
    return null;
  }
}
