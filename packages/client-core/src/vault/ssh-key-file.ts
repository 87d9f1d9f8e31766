import { concat, encode, fromBase64, text, toBase64, uint32 } from './ssh-wire';

/**
 * The armour of OpenSSH's private key file ("openssh-key-v1", OpenSSH's PROTOCOL.key): the
 * BEGIN/END lines around base64 of a magic string and the key's fields. Shared by the key reader
 * and the passphrase opener; not part of the core's public surface.
 */

/** A private key Lockit cannot take; the message says why in one sentence a person can act on. */
export class SshKeyError extends Error {
  override readonly name = 'SshKeyError';
}

const BEGIN = '-----BEGIN OPENSSH PRIVATE KEY-----';
const END = '-----END OPENSSH PRIVATE KEY-----';
const MAGIC = 'openssh-key-v1\0';

/** The fields after the magic string of an OpenSSH private key's text; SshKeyError for any other text. */
export function sshKeyFileBody(armoured: string): Uint8Array {
  const trimmed = armoured.trim();
  if (/^-----BEGIN (RSA|EC|DSA|ENCRYPTED)? ?PRIVATE KEY-----/.test(trimmed)) {
    throw new SshKeyError(
      'This is a PEM private key, not an OpenSSH one. Convert it with: ssh-keygen -p -f KEYFILE (it rewrites the key in OpenSSH format).',
    );
  }
  if (!trimmed.startsWith(BEGIN) || !trimmed.endsWith(END)) {
    throw new SshKeyError(`This is not an OpenSSH private key (it starts with "${BEGIN}").`);
  }
  let bytes: Uint8Array;
  try {
    bytes = fromBase64(trimmed.slice(BEGIN.length, -END.length).replace(/\s+/g, ''));
  } catch {
    throw new SshKeyError('This OpenSSH private key is damaged (its text is not base64).');
  }
  if (new TextDecoder().decode(bytes.subarray(0, MAGIC.length)) !== MAGIC) {
    throw new SshKeyError('This OpenSSH private key is damaged (its header is wrong).');
  }
  return bytes.subarray(MAGIC.length);
}

/** The text of an unencrypted key file holding one key: its public blob and its private section. */
export function unencryptedSshKeyText(publicBlob: Uint8Array, secret: Uint8Array): string {
  const file = concat([
    new TextEncoder().encode(MAGIC),
    encode([text('none'), text('none'), new Uint8Array(0)]),
    uint32(1),
    encode([publicBlob, secret]),
  ]);
  const lines = toBase64(file).match(/.{1,70}/g) ?? [];
  return `${BEGIN}\n${lines.join('\n')}\n${END}\n`;
}
