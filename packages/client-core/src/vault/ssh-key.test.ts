import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EntryDraftError } from './entry-draft-error';
import { emptyDraft } from './entry-drafts';
import { entryPlaintext } from './entry-plaintext';
import { generateEd25519SshKey, parseSshPrivateKey, SshKeyError, sshKeyNeedsPassphrase } from './ssh-key';

// Real OpenSSH makes the keys and says what their public halves and fingerprints are.
const dir = mkdtempSync(join(tmpdir(), 'ssh-key-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function keygen(name: string, args: string[]): { privateKey: string; publicKey: string; fingerprint: string } {
  const file = join(dir, name);
  execFileSync('ssh-keygen', ['-q', '-f', file, ...args]);
  return {
    privateKey: readFileSync(file, 'utf8'),
    publicKey: readFileSync(`${file}.pub`, 'utf8').trim(),
    fingerprint: execFileSync('ssh-keygen', ['-l', '-E', 'sha256', '-f', `${file}.pub`], { encoding: 'utf8' }).split(' ')[1]!,
  };
}

describe('OpenSSH private keys', () => {
  it.each([
    ['ed25519', ['-t', 'ed25519']],
    ['rsa', ['-t', 'rsa', '-b', '2048']],
  ])('reads an %s key as ssh-keygen wrote it: same public key line and fingerprint', (name, args) => {
    const made = keygen(`${name}-key`, [...args, '-N', '', '-C', `${name}@lockit`]);
    const parsed = parseSshPrivateKey(made.privateKey);
    expect(parsed.publicKey).toBe(made.publicKey);
    expect(parsed.fingerprint).toBe(made.fingerprint);
    expect(parsed.comment).toBe(`${name}@lockit`);
  });

  it('tells a passphrase-protected key apart, and refuses to read it before it is opened', () => {
    const made = keygen('protected', ['-t', 'ed25519', '-N', 'a passphrase']);
    expect(sshKeyNeedsPassphrase(made.privateKey)).toBe(true);
    expect(sshKeyNeedsPassphrase(keygen('open', ['-t', 'ed25519', '-N', '']).privateKey)).toBe(false);
    expect(sshKeyNeedsPassphrase('hello')).toBe(false);
    expect(() => parseSshPrivateKey(made.privateKey)).toThrow(/protected by a passphrase: type the passphrase/);
  });

  it('refuses a PEM key, text that is no key, and a key with a changed byte', () => {
    expect(() => parseSshPrivateKey('-----BEGIN RSA PRIVATE KEY-----\nMIIB\n-----END RSA PRIVATE KEY-----')).toThrow(
      /PEM private key/,
    );
    expect(() => parseSshPrivateKey('hello')).toThrow(SshKeyError);
    const made = keygen('damaged', ['-t', 'ed25519', '-N', '']);
    const lines = made.privateKey.split('\n');
    // A character in the copy of the public key inside the private half: the halves no longer match.
    lines[5] = `${lines[5]!.slice(0, 10)}${lines[5]![10] === 'A' ? 'B' : 'A'}${lines[5]!.slice(11)}`;
    expect(() => parseSshPrivateKey(lines.join('\n'))).toThrow(/damaged/);
    expect(() => parseSshPrivateKey(made.privateKey.slice(0, 200) + '\n-----END OPENSSH PRIVATE KEY-----')).toThrow(SshKeyError);
  });

  it('generates an Ed25519 key that ssh-keygen reads and derives the same public key from', async () => {
    const text = await generateEd25519SshKey('made@lockit');
    const file = join(dir, 'generated');
    writeFileSync(file, text, { mode: 0o600 });
    const derived = execFileSync('ssh-keygen', ['-y', '-f', file], { encoding: 'utf8' }).trim();
    const parsed = parseSshPrivateKey(text);
    expect(parsed.type).toBe('ssh-ed25519');
    expect(derived).toBe(parsed.publicKey);
    expect(parsed.comment).toBe('made@lockit');
  });
});

describe('an SSH key item', () => {
  it('keeps the private key in details only and derives the public key and fingerprint', () => {
    const made = keygen('item', ['-t', 'ed25519', '-N', '', '-C', 'laptop']);
    const plain = entryPlaintext({
      ...emptyDraft('sshKey'),
      serviceName: 'Deploy key',
      sshKey: { privateKey: made.privateKey, comment: '' },
    });
    expect(plain.overview.sshKey).toEqual({ publicKey: made.publicKey, fingerprint: made.fingerprint, comment: 'laptop' });
    expect(JSON.stringify(plain.overview)).not.toContain('PRIVATE KEY');
    expect(plain.details?.sshKey?.privateKey).toBe(made.privateKey);
    expect(plain.password).toBe('');
  });

  it('refuses to save an SSH key item with no key or a bad one', () => {
    expect(() => entryPlaintext({ ...emptyDraft('sshKey'), serviceName: 'Empty' })).toThrow(EntryDraftError);
    expect(() =>
      entryPlaintext({ ...emptyDraft('sshKey'), serviceName: 'Bad', sshKey: { privateKey: 'not a key', comment: '' } }),
    ).toThrow(/not an OpenSSH private key/);
  });
});
