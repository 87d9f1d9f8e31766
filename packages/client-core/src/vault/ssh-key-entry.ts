import type { DetailsDocument, SshKeyOverview } from '@lockit/contract';
import { EntryDraftError } from './entry-draft-error';
import { parseSshPrivateKey, SshKeyError } from './ssh-key';
import type { SshKeyDraft } from './vault-entry';

/**
 * What an SSH key item saves: the public key line, fingerprint and comment in the overview (the
 * list shows them without opening details), the private key in details only. The public half is
 * derived from the private key, so the two cannot disagree; a key that does not parse is refused
 * with the parser's sentence.
 */
export function sshKeyPlaintext(draft: SshKeyDraft | null | undefined): {
  overview: SshKeyOverview;
  secret: NonNullable<DetailsDocument['sshKey']>;
} {
  const privateKey = draft?.privateKey.trim() ?? '';
  if (privateKey === '') throw new EntryDraftError('Generate or paste an SSH private key.');
  let parsed;
  try {
    parsed = parseSshPrivateKey(privateKey);
  } catch (error) {
    if (error instanceof SshKeyError) throw new EntryDraftError(error.message);
    throw error;
  }
  const comment = (draft?.comment.trim() || parsed.comment).replace(/[\r\n]+/g, ' ');
  const line = parsed.publicKey.split(' ').slice(0, 2).join(' ');
  return {
    overview: { publicKey: comment === '' ? line : `${line} ${comment}`, fingerprint: parsed.fingerprint, comment },
    secret: { privateKey: `${privateKey}\n` },
  };
}
