// The package has no types; a path reference brings its declaration into every program that
// compiles the core from source (web, cli, extension), which an ambient file of ours would not.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./bcrypt-pbkdf.d.ts" />
import bcryptPbkdf from 'bcrypt-pbkdf';
import { parseSshPrivateKey } from './ssh-key';
import { SshKeyError, sshKeyFileBody, unencryptedSshKeyText } from './ssh-key-file';
import { concat, SshReader } from './ssh-wire';

/**
 * Opens an OpenSSH private key behind a passphrase, as `ssh-keygen -N` writes it: the bcrypt
 * KDF (OpenBSD's bcrypt_pbkdf, from the npm package ssh2 uses too) turns the passphrase and the
 * file's salt into an AES key and IV, and WebCrypto decrypts the private section (AES-CTR, or
 * AES-GCM with its tag after the section). The result is the same key as an unencrypted file.
 *
 * Invariants: this runs on the device only (the passphrase and the opened key never leave it
 * but sealed in the vault); a wrong passphrase is told apart from a right one by OpenSSH's own
 * check words (CTR) or the GCM tag, so a wrong one never yields a key; the key that comes out is
 * read again by `parseSshPrivateKey`, which derives its public half, so nothing of the
 * encrypted file's public blob is taken on trust.
 */

interface Cipher {
  algorithm: 'AES-CTR' | 'AES-GCM';
  keyLength: number;
  ivLength: number;
  tagLength: number;
}

/** The ciphers OpenSSH's ssh-keygen offers whose AES WebCrypto has in every browser (not AES-192). */
const CIPHERS: Record<string, Cipher> = {
  'aes256-ctr': { algorithm: 'AES-CTR', keyLength: 32, ivLength: 16, tagLength: 0 },
  'aes128-ctr': { algorithm: 'AES-CTR', keyLength: 16, ivLength: 16, tagLength: 0 },
  'aes256-gcm@openssh.com': { algorithm: 'AES-GCM', keyLength: 32, ivLength: 12, tagLength: 16 },
  'aes128-gcm@openssh.com': { algorithm: 'AES-GCM', keyLength: 16, ivLength: 12, tagLength: 16 },
};

/**
 * ssh-keygen's default is 16 rounds (`-a`; guides suggest up to 100): about 1.4 s in this pure-JS
 * KDF on a busy 2-core machine, so 256 is about 20 s. A file asking for more would hold the page
 * for minutes, so it is refused with what to do instead.
 */
export const MAX_SSH_KDF_ROUNDS = 256;

const WRONG_PASSPHRASE = 'This passphrase does not open the key. Check it and type it again.';

/**
 * The unencrypted OpenSSH text of a passphrase-protected key (an unencrypted one comes back as
 * it is); SshKeyError with a sentence to act on for a wrong passphrase or a key it cannot open.
 */
export async function decryptSshPrivateKey(armoured: string, passphrase: string): Promise<string> {
  const file = readEncryptedFile(armoured);
  if (file === null) return armoured;
  const { cipher, salt, rounds, publicBlob, encrypted, tag } = file;
  const derived = new Uint8Array(cipher.keyLength + cipher.ivLength);
  const secretBytes = new TextEncoder().encode(passphrase);
  if (bcryptPbkdf.pbkdf(secretBytes, secretBytes.length, salt, salt.length, derived, derived.length, rounds) !== 0) {
    throw new SshKeyError('This OpenSSH private key is damaged (its key derivation settings are wrong).');
  }
  const key = await crypto.subtle.importKey('raw', derived.slice(0, cipher.keyLength), cipher.algorithm, false, ['decrypt']);
  const iv = derived.slice(cipher.keyLength);
  derived.fill(0);
  const params =
    cipher.algorithm === 'AES-CTR'
      ? { name: 'AES-CTR', counter: iv, length: 128 } // OpenSSH counts over the whole 16-byte block.
      : { name: 'AES-GCM', iv, tagLength: 128 }; // No additional data: OpenSSH authenticates the section only.
  let secret: Uint8Array;
  try {
    secret = new Uint8Array(await crypto.subtle.decrypt(params, key, new Uint8Array(concat([encrypted, tag]))));
  } catch {
    throw new SshKeyError(WRONG_PASSPHRASE); // The GCM tag did not match.
  }
  const check = new SshReader(secret);
  if (check.uint32() !== check.uint32()) throw new SshKeyError(WRONG_PASSPHRASE);
  const opened = unencryptedSshKeyText(publicBlob, secret);
  parseSshPrivateKey(opened);
  return opened;
}

interface EncryptedFile {
  cipher: Cipher;
  salt: Uint8Array;
  rounds: number;
  publicBlob: Uint8Array;
  encrypted: Uint8Array;
  tag: Uint8Array;
}

/** The fields of a passphrase-protected key file, or null for an unencrypted one. */
function readEncryptedFile(armoured: string): EncryptedFile | null {
  const reader = new SshReader(sshKeyFileBody(armoured));
  try {
    const cipherName = reader.text();
    const kdfName = reader.text();
    const kdfOptions = reader.string();
    if (cipherName === 'none') return null;
    const cipher = CIPHERS[cipherName];
    if (cipher === undefined) {
      throw new SshKeyError(
        `This key is encrypted with ${cipherName}, which Lockit cannot open. Re-encrypt a copy with: ssh-keygen -p -Z aes256-ctr -f COPY, then import the copy.`,
      );
    }
    if (kdfName !== 'bcrypt') throw new SshKeyError(`This key's passphrase uses the ${kdfName} KDF, which Lockit cannot open.`);
    const options = new SshReader(kdfOptions);
    const salt = options.string();
    const rounds = options.uint32();
    if (rounds < 1 || rounds > MAX_SSH_KDF_ROUNDS) {
      throw new SshKeyError(
        `This key's passphrase takes ${rounds} KDF rounds (Lockit opens up to ${MAX_SSH_KDF_ROUNDS}). Re-encrypt a copy with: ssh-keygen -p -a 16 -f COPY, then import the copy.`,
      );
    }
    if (reader.uint32() !== 1) throw new SshKeyError('This file holds several keys; import them one at a time.');
    const publicBlob = reader.string();
    const encrypted = reader.string();
    const tag = reader.fixed(cipher.tagLength);
    if (encrypted.length === 0 || encrypted.length % 16 !== 0) {
      throw new SshKeyError('This OpenSSH private key is damaged (its encrypted part has a wrong length).');
    }
    return { cipher, salt, rounds, publicBlob, encrypted, tag };
  } catch (error) {
    if (error instanceof SshKeyError) throw error;
    throw new SshKeyError('This OpenSSH private key is damaged (it ends too early).');
  }
}
