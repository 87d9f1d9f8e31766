import { sha256 } from '@noble/hashes/sha2.js';
import { SshKeyError, sshKeyFileBody, unencryptedSshKeyText } from './ssh-key-file';
import { concat, encode, equal, SshReader, text, toBase64 } from './ssh-wire';

/**
 * SSH keys in OpenSSH's own private key format ("openssh-key-v1", OpenSSH's PROTOCOL.key):
 * reading one a person pastes, making a new Ed25519 one, and the public key line and SHA256
 * fingerprint OpenSSH shows for it.
 *
 * Hand-written because the libraries that read this format (sshpk, ssh2) are built on Node's
 * Buffer and crypto modules, and this core also runs in the browser; the format is a short
 * length-prefixed layout, and only its unencrypted form is read here (the vault is the key's
 * encryption; a key behind a passphrase is opened first by `decryptSshPrivateKey`). Ed25519 and
 * RSA keys are taken; other kinds are refused with a sentence that says what to do.
 *
 * Invariant: the public key and fingerprint are always derived from the private key here, never
 * taken from what a person typed, so an item cannot show one key and hold another.
 */

export type SshKeyType = 'ssh-ed25519' | 'ssh-rsa';

export interface ParsedSshKey {
  type: SshKeyType;
  /** The public key blob (SSH wire format), what agents list and signatures name. */
  publicBlob: Uint8Array;
  /** An authorized_keys line: type, base64 blob and the comment (when there is one). */
  publicKey: string;
  /** `SHA256:` and the unpadded base64 of the blob's SHA-256, as `ssh-keygen -l` prints it. */
  fingerprint: string;
  /** The comment stored in the private key ('' for none). */
  comment: string;
}

export { SshKeyError } from './ssh-key-file';

/**
 * Whether the text is an OpenSSH private key behind a passphrase (open it with
 * `decryptSshPrivateKey` before it is read or saved).
 */
export function sshKeyNeedsPassphrase(text: string): boolean {
  try {
    return new SshReader(sshKeyFileBody(text)).text() !== 'none';
  } catch {
    return false;
  }
}

/** Reads an unencrypted OpenSSH private key (Ed25519 or RSA); SshKeyError otherwise. */
export function parseSshPrivateKey(text: string): ParsedSshKey {
  const bytes = sshKeyFileBody(text);
  try {
    return readKey(bytes);
  } catch (error) {
    if (error instanceof SshKeyError) throw error;
    throw new SshKeyError('This OpenSSH private key is damaged (it ends too early).');
  }
}

function readKey(bytes: Uint8Array): ParsedSshKey {
  const reader = new SshReader(bytes);
  const cipher = reader.text();
  reader.string(); // kdf name
  reader.string(); // kdf options
  if (cipher !== 'none') {
    throw new SshKeyError(
      'This key is protected by a passphrase: type the passphrase to open it (Lockit keeps the key without it; the vault encrypts it).',
    );
  }
  if (reader.uint32() !== 1) throw new SshKeyError('This file holds several keys; import them one at a time.');
  const publicBlob = reader.string();
  const secret = new SshReader(reader.string());
  if (secret.uint32() !== secret.uint32()) throw new SshKeyError('This OpenSSH private key is damaged (its check fails).');
  const type = secret.text();
  let innerBlob: Uint8Array;
  if (type === 'ssh-ed25519') {
    const publicKey = secret.string();
    const privateKey = secret.string();
    if (publicKey.length !== 32 || privateKey.length !== 64 || !equal(privateKey.subarray(32), publicKey)) {
      throw new SshKeyError('This Ed25519 key is damaged (its halves do not match).');
    }
    innerBlob = encode([text('ssh-ed25519'), publicKey]);
  } else if (type === 'ssh-rsa') {
    const n = secret.string();
    const e = secret.string();
    for (let i = 0; i < 4; i++) secret.string(); // d, iqmp, p, q
    innerBlob = encode([text('ssh-rsa'), e, n]);
  } else {
    throw new SshKeyError(`Lockit takes Ed25519 and RSA keys; this one is ${type}.`);
  }
  if (!equal(innerBlob, publicBlob))
    throw new SshKeyError('This OpenSSH private key is damaged (its public key does not match).');
  const comment = secret.text();
  return describe(type, publicBlob, comment);
}

/** The public key line and fingerprint of a public blob. */
function describe(type: SshKeyType, publicBlob: Uint8Array, comment: string): ParsedSshKey {
  const line = `${type} ${toBase64(publicBlob)}`;
  return {
    type,
    publicBlob,
    publicKey: comment === '' ? line : `${line} ${comment.replace(/[\r\n]+/g, ' ')}`,
    fingerprint: `SHA256:${toBase64(sha256(publicBlob)).replace(/=+$/, '')}`,
    comment,
  };
}

/**
 * A new Ed25519 key from WebCrypto (the browser's and Node's), written as OpenSSH writes an
 * unencrypted key; `random` fills the check word (tests pass their own).
 */
export async function generateEd25519SshKey(
  comment: string,
  random: (bytes: Uint8Array<ArrayBuffer>) => Uint8Array = (bytes) => crypto.getRandomValues(bytes),
): Promise<string> {
  const pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as {
    publicKey: CryptoKey;
    privateKey: CryptoKey;
  };
  const publicKey = new Uint8Array(await crypto.subtle.exportKey('raw', pair.publicKey));
  // PKCS#8 of an Ed25519 key ends with the 32-byte seed (RFC 8410).
  const seed = new Uint8Array(await crypto.subtle.exportKey('pkcs8', pair.privateKey)).slice(-32);
  return ed25519PrivateKeyText(seed, publicKey, comment, random(new Uint8Array(4)));
}

/** OpenSSH's unencrypted private key text for an Ed25519 seed and public key. */
export function ed25519PrivateKeyText(seed: Uint8Array, publicKey: Uint8Array, comment: string, check: Uint8Array): string {
  const publicBlob = encode([text('ssh-ed25519'), publicKey]);
  const privateKey = new Uint8Array(64);
  privateKey.set(seed, 0);
  privateKey.set(publicKey, 32);
  const body = concat([check, check, encode([text('ssh-ed25519'), publicKey, privateKey, text(comment)])]);
  const padding = Array.from({ length: (8 - (body.length % 8)) % 8 }, (_, i) => i + 1);
  const secret = concat([body, Uint8Array.from(padding)]);
  return unencryptedSshKeyText(publicBlob, secret);
}
