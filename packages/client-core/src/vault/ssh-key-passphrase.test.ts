import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseSshPrivateKey, SshKeyError } from './ssh-key';
import { decryptSshPrivateKey } from './ssh-key-passphrase';

// Real OpenSSH makes the protected keys, and reads back what Lockit opened.
const dir = mkdtempSync(join(tmpdir(), 'ssh-key-passphrase-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const PASSPHRASE = 'correct horse ✓ battery';
let count = 0;

/** ssh-keygen's key behind PASSPHRASE: the file's text and the public line it printed. */
function protectedKey(args: string[]): { privateKey: string; publicKey: string } {
  const file = join(dir, `key-${++count}`);
  execFileSync('ssh-keygen', ['-q', '-f', file, '-N', PASSPHRASE, ...args]);
  return { privateKey: readFileSync(file, 'utf8'), publicKey: readFileSync(`${file}.pub`, 'utf8').trim() };
}

/** The public line OpenSSH derives from an unencrypted key file (it fails on an encrypted one: -P ''). */
function publicLineByOpenSsh(privateKey: string): string {
  const file = join(dir, `opened-${++count}`);
  writeFileSync(file, privateKey, { mode: 0o600 });
  return execFileSync('ssh-keygen', ['-y', '-P', '', '-f', file], { encoding: 'utf8' }).trim();
}

/** The key file with its bcrypt round count (after the magic, cipher, KDF name and salt) replaced. */
function withKdfRounds(privateKey: string, rounds: number): string {
  const lines = privateKey.trim().split('\n');
  const bytes = Buffer.from(lines.slice(1, -1).join(''), 'base64');
  let offset = 'openssh-key-v1\0'.length;
  for (let field = 0; field < 2; field++) offset += 4 + bytes.readUInt32BE(offset); // cipher, KDF name
  offset += 4; // the KDF options' length
  offset += 4 + bytes.readUInt32BE(offset); // the salt
  bytes.writeUInt32BE(rounds, offset);
  return `${lines[0]}\n${bytes.toString('base64')}\n${lines.at(-1)}\n`;
}

describe('OpenSSH private keys behind a passphrase', { timeout: 60_000 }, () => {
  it.each([
    ['ed25519', 'aes256-ctr', ['-t', 'ed25519']],
    ['ed25519', 'aes256-gcm@openssh.com', ['-t', 'ed25519']],
    ['ed25519', 'aes128-ctr', ['-t', 'ed25519']],
    ['rsa', 'aes256-ctr', ['-t', 'rsa', '-b', '2048']],
    ['rsa', 'aes256-gcm@openssh.com', ['-t', 'rsa', '-b', '2048']],
  ])('opens an %s key encrypted with %s into the same key, unencrypted, as OpenSSH reads it', async (name, cipher, args) => {
    const made = protectedKey([...args, '-Z', cipher, '-C', `${name}@${cipher}`]);
    expect(made.privateKey).toContain('-----BEGIN OPENSSH PRIVATE KEY-----');
    const opened = await decryptSshPrivateKey(made.privateKey, PASSPHRASE);
    const parsed = parseSshPrivateKey(opened);
    expect(parsed.publicKey).toBe(made.publicKey);
    expect(parsed.comment).toBe(`${name}@${cipher}`);
    expect(publicLineByOpenSsh(opened)).toBe(made.publicKey);
  });

  it.each(['aes256-ctr', 'aes256-gcm@openssh.com'])('refuses a wrong passphrase for %s with a clear message', async (cipher) => {
    const made = protectedKey(['-t', 'ed25519', '-Z', cipher]);
    const opening = decryptSshPrivateKey(made.privateKey, 'not the passphrase');
    await expect(opening).rejects.toThrow(SshKeyError);
    await expect(opening).rejects.toThrow('This passphrase does not open the key. Check it and type it again.');
  });

  it('says what to do with a cipher it cannot open and with a KDF asking for too many rounds', async () => {
    const chacha = protectedKey(['-t', 'ed25519', '-Z', 'chacha20-poly1305@openssh.com']);
    await expect(decryptSshPrivateKey(chacha.privateKey, PASSPHRASE)).rejects.toThrow(
      /encrypted with chacha20-poly1305@openssh.com, which Lockit cannot open\. Re-encrypt a copy with: ssh-keygen -p -Z aes256-ctr/,
    );
    // ssh-keygen itself would take minutes to write such a key: its round count is changed instead.
    const slow = withKdfRounds(protectedKey(['-t', 'ed25519']).privateKey, 5000);
    await expect(decryptSshPrivateKey(slow, PASSPHRASE)).rejects.toThrow(/takes 5000 KDF rounds \(Lockit opens up to 256\)/);
  });

  it('gives an unencrypted key back as it is, and refuses text that is no key', async () => {
    const file = join(dir, 'plain');
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', file]);
    const plain = readFileSync(file, 'utf8');
    expect(await decryptSshPrivateKey(plain, 'anything')).toBe(plain);
    await expect(decryptSshPrivateKey('hello', PASSPHRASE)).rejects.toThrow(SshKeyError);
  });
});
