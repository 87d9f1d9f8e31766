import type { AttachmentPlatform, AttachmentSource, ProgressListener } from '@lockit/client-core';
import {
  sealedAttachmentSize,
  sealShare,
  sealShareKeyed,
  sealShareLabel,
  type ShareContent,
  type ShareLabel,
} from '@lockit/crypto';
import type { CreateShareLinkRequest } from '@lockit/contract';
import { pageAttachmentPlatform } from '../attachments/attachment-platform';
import { uploadSharedFile } from './share-file-transfer';
import { createShareLink, revokeShareLink } from './share-links-api';

/** The expiries the form offers, within the server's 1 hour to 30 days. */
export const EXPIRY_CHOICES = [
  { label: '1 hour', seconds: 60 * 60 },
  { label: '1 day', seconds: 24 * 60 * 60 },
  { label: '7 days', seconds: 7 * 24 * 60 * 60 },
  { label: '30 days', seconds: 30 * 24 * 60 * 60 },
] as const;

export interface ShareOptions {
  expiresInSeconds: number;
  maxOpenings: number;
  /** Empty: no password. */
  password: string;
  deleteAfterOpening: boolean;
}

/**
 * Seals `content` here, stores the sealed share, and answers the link to show once. The key
 * is only in the link's fragment (`#...`), which browsers never send to a server. The owner's
 * label (what was shared, from which item) goes sealed under the vault key, for the owner's list.
 */
export async function makeShareLink(
  content: ShareContent,
  options: ShareOptions,
  owner: { vaultKey: CryptoKey; label: ShareLabel } | null,
  origin = window.location.origin,
): Promise<string> {
  const { sealed, linkKey } = await sealShare(content, options.password === '' ? null : options.password);
  const body: CreateShareLinkRequest = {
    id: sealed.id,
    ciphertext: sealed.ciphertext,
    keyCheck: sealed.keyCheck,
    passwordSalt: sealed.passwordSalt,
    expiresInSeconds: options.expiresInSeconds,
    maxOpenings: options.maxOpenings,
    deleteAfterOpening: options.deleteAfterOpening,
    label: owner && (await sealShareLabel(owner.vaultKey, sealed.id, owner.label)),
  };
  await createShareLink(body);
  return `${origin}/share/${sealed.id}#${linkKey}`;
}

/**
 * Shares a file (decision 0081): its name, type and size are sealed as the share's content,
 * its bytes are sealed chunk by chunk under the same key and uploaded as they are read (the
 * file is never whole in memory), and the link opens once the upload finished. A failed upload
 * revokes the link (best effort), which frees what was stored. Answers the link to show once.
 */
export async function makeFileShareLink(
  source: AttachmentSource,
  options: ShareOptions,
  owner: { vaultKey: CryptoKey; label: ShareLabel } | null,
  onProgress?: ProgressListener,
  platform: AttachmentPlatform = pageAttachmentPlatform,
  origin = window.location.origin,
): Promise<string> {
  const content: ShareContent = { kind: 'file', file: { name: source.name, type: source.type, size: source.size } };
  const { sealed, linkKey, key } = await sealShareKeyed(content, options.password === '' ? null : options.password);
  await createShareLink({
    id: sealed.id,
    ciphertext: sealed.ciphertext,
    keyCheck: sealed.keyCheck,
    passwordSalt: sealed.passwordSalt,
    expiresInSeconds: options.expiresInSeconds,
    maxOpenings: options.maxOpenings,
    deleteAfterOpening: options.deleteAfterOpening,
    label: owner && (await sealShareLabel(owner.vaultKey, sealed.id, owner.label)),
    fileSize: sealedAttachmentSize(source.size),
  });
  try {
    await uploadSharedFile(platform, sealed.id, key, source, onProgress);
  } catch (error) {
    await revokeShareLink(sealed.id).catch(() => undefined);
    throw error;
  }
  return `${origin}/share/${sealed.id}#${linkKey}`;
}
