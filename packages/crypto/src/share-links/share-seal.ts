import { utf8Encode } from '../encoding';
import { AuthenticationFailedError, CiphertextFormatError } from '../errors';
import { openSealed, sealPadded } from '../sealed-text';
import { decodeShareContent, encodeShareContent, type ShareContent } from './share-content';
import { ShareOpenError } from './share-errors';
import { checkShareId, deriveShareKeys, newShareLinkSecrets, newSharePasswordSalt, TAMPERED_MESSAGE } from './share-key';

/** What the server stores for a share: all of it useless without the link's fragment. */
export interface SealedShare {
  id: string;
  /** `v2.<iv>.<data>`: the padded content, bound to the share id. */
  ciphertext: string;
  keyCheck: string;
  /** Salt of the password's Argon2id; null when the share has no password. */
  passwordSalt: string | null;
}

const shareAad = (id: string) => utf8Encode(`lockit/v1/share|${checkShareId(id)}`);

/**
 * Seals `content` for a new share. Returns what goes to the server and the fragment key that
 * only the link carries. Security invariant: the ciphertext is bound to the share id (its AAD),
 * so a server that serves one share's ciphertext under another id is caught; it is padded
 * (sealPadded), so its length shows only the content's size bucket.
 */
export async function sealShare(
  content: ShareContent,
  password: string | null,
): Promise<{ sealed: SealedShare; linkKey: string }> {
  const { sealed, linkKey } = await sealShareKeyed(content, password);
  return { sealed, linkKey };
}

/** sealShare, also giving the share's key: a shared file's chunks are sealed under it (sealSharedFileStream). */
export async function sealShareKeyed(
  content: ShareContent,
  password: string | null,
): Promise<{ sealed: SealedShare; linkKey: string; key: CryptoKey }> {
  if (password === '') throw new RangeError('A share password cannot be empty: pass null for none.');
  const { id, linkKey } = newShareLinkSecrets();
  const passwordSalt = password === null ? null : newSharePasswordSalt();
  const { key, keyCheck } = await deriveShareKeys({ id, linkKey, password, passwordSalt });
  const ciphertext = await sealPadded(key, encodeShareContent(content), shareAad(id));
  return { sealed: { id, ciphertext, keyCheck, passwordSalt }, linkKey, key };
}

/**
 * Opens a share with the link's fragment key and the password the recipient typed (null when
 * the share has none). Throws ShareOpenError: 'password' when the key check differs (wrong
 * password, or another link's key), 'tampered' when the key is right but the content, its id
 * binding or its shape was changed, 'link' when the fragment is damaged. Nothing is returned
 * unless the content authenticates.
 */
export async function openShare(sealed: SealedShare, linkKey: string, password: string | null): Promise<ShareContent> {
  return (await openShareKeyed(sealed, linkKey, password)).content;
}

/** openShare, also giving the share's key: a shared file's chunks open under it (openSharedFileStream). */
export async function openShareKeyed(
  sealed: SealedShare,
  linkKey: string,
  password: string | null,
): Promise<{ content: ShareContent; key: CryptoKey }> {
  const needsPassword = sealed.passwordSalt !== null;
  if (needsPassword && (password === null || password === '')) {
    throw new ShareOpenError('password', 'This share needs its password. Type it and try again.');
  }
  const { key, keyCheck } = await deriveShareKeys({
    id: sealed.id,
    linkKey,
    password: needsPassword ? password : null,
    passwordSalt: sealed.passwordSalt,
  });
  if (keyCheck !== sealed.keyCheck) {
    throw new ShareOpenError(
      'password',
      sealed.passwordSalt === null
        ? 'This link does not open this share: the link or the share was changed. Nothing was shown.'
        : 'Wrong password. Check it with the person who sent you the link and try again.',
    );
  }
  try {
    return { content: decodeShareContent(await openSealed(key, sealed.ciphertext, shareAad(sealed.id), ['v2'])), key };
  } catch (error) {
    if (
      error instanceof AuthenticationFailedError ||
      error instanceof CiphertextFormatError ||
      error instanceof TypeError ||
      error instanceof SyntaxError
    ) {
      throw new ShareOpenError('tampered', TAMPERED_MESSAGE);
    }
    throw error;
  }
}
