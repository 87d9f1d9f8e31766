import { openShareLabel, plainAttachmentSize } from '@lockit/crypto';
import type { ShareLink } from '@lockit/contract';
import { formatSize } from '../attachments/format-size';

/** A link as its owner's list shows it: what it shares, in words, and whether it is this item's. */
export interface LabelledLink {
  link: ShareLink;
  title: string;
  ofThisItem: boolean;
}

/** Said of a label that does not open: the server changed it, or it predates a key rotation. */
export const UNREADABLE_LABEL = 'Label unreadable (made before a key rotation, or changed on the server)';
/** Said of a link made before labels existed. */
export const NO_LABEL = 'A link without a label';

/**
 * Opens each link's owner label under the vault key and puts this item's links first (each group
 * newest first, as served). Security invariant: a label is shown only when it authenticates
 * under this vault key for that very link id; whatever else the server sends is never shown as
 * a title.
 */
export async function labelLinks(
  links: readonly ShareLink[],
  vaultKey: CryptoKey | null,
  entryId: string,
): Promise<LabelledLink[]> {
  const labelled = await Promise.all(
    links.map(async (link): Promise<LabelledLink> => {
      if (link.label === null) return { link, title: NO_LABEL, ofThisItem: false };
      const label = vaultKey ? await openShareLabel(vaultKey, link.id, link.label) : null;
      if (label === null) return { link, title: UNREADABLE_LABEL, ofThisItem: false };
      return { link, title: label.title, ofThisItem: label.itemId === entryId };
    }),
  );
  return [...labelled.filter((one) => one.ofThisItem), ...labelled.filter((one) => !one.ofThisItem)];
}

/**
 * What the owner's list says of a link besides its title: openings left, the file it shares
 * (its size, from the sealed size the server counts) and whether that file finished uploading,
 * the password, the expiry.
 */
export function linkDetails(link: ShareLink, formatDate: (iso: string) => string): string {
  const parts = [link.openingsLeft === 0 ? 'Used up' : `${link.openingsLeft} of ${link.maxOpenings} openings left`];
  if (link.file) {
    const size = plainAttachmentSize(link.file.size);
    parts.push(size === null ? 'a file' : `a file of ${formatSize(size)}`);
    if (!link.file.finished) parts.push('upload not finished: the link does not open');
  }
  if (link.needsPassword) parts.push('password');
  parts.push(`expires ${formatDate(link.expiresAt)}`);
  return parts.join(' · ');
}
