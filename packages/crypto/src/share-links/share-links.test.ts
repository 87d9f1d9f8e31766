import { describe, expect, it } from 'vitest';
import { fromBase64Url, toBase64Url } from '../encoding';
import { openShare, sealShare, ShareOpenError, type SealedShare, type ShareContent } from './index';

const text: ShareContent = { kind: 'text', text: 'guest wifi: correct horse' };
const item: ShareContent = {
  kind: 'item',
  item: {
    title: 'Contractor VPN',
    username: 'contractor',
    password: 's3cret!',
    url: 'https://vpn.example',
    notes: 'until Friday',
  },
};

async function failure(promise: Promise<unknown>): Promise<ShareOpenError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ShareOpenError);
  return error as ShareOpenError;
}

function flipLastChar(value: string): string {
  const bytes = fromBase64Url(value.split('.').at(-1)!);
  bytes[bytes.length - 1]! ^= 1;
  return [...value.split('.').slice(0, -1), toBase64Url(bytes)].join('.');
}

describe('share links (text and item copies, key in the fragment)', () => {
  it('opens a text and an item copy with the fragment key alone when there is no password', async () => {
    for (const content of [text, item]) {
      const { sealed, linkKey } = await sealShare(content, null);
      expect(sealed.passwordSalt).toBeNull();
      expect(fromBase64Url(linkKey)).toHaveLength(32);
      expect(sealed.ciphertext).not.toContain('correct horse');
      await expect(openShare(sealed, linkKey, null)).resolves.toEqual(content);
    }
  });

  it('needs the password, which is part of the key: a wrong one is told apart from changed content', async () => {
    const { sealed, linkKey } = await sealShare(item, 'tr0ub4dor');
    expect(sealed.passwordSalt).not.toBeNull();
    await expect(openShare(sealed, linkKey, 'tr0ub4dor')).resolves.toEqual(item);
    expect((await failure(openShare(sealed, linkKey, 'tr0ub4dor!'))).reason).toBe('password');
    expect((await failure(openShare(sealed, linkKey, null))).reason).toBe('password');
    // A server that claims no password is needed gets no opening either.
    expect((await failure(openShare({ ...sealed, passwordSalt: null }, linkKey, null))).reason).toBe('password');
  }, 30_000);

  it('refuses a wrong or damaged fragment key', async () => {
    const { sealed, linkKey } = await sealShare(text, null);
    const other = (await sealShare(text, null)).linkKey;
    expect((await failure(openShare(sealed, other, null))).reason).toBe('password');
    expect((await failure(openShare(sealed, linkKey.slice(0, 20), null))).reason).toBe('link');
    expect((await failure(openShare(sealed, '', null))).reason).toBe('link');
  });

  it('refuses changed, truncated or moved ciphertext as tampered', async () => {
    const { sealed, linkKey } = await sealShare(text, null);
    const changed: SealedShare = { ...sealed, ciphertext: flipLastChar(sealed.ciphertext) };
    expect((await failure(openShare(changed, linkKey, null))).reason).toBe('tampered');
    const truncated: SealedShare = { ...sealed, ciphertext: sealed.ciphertext.slice(0, -8) };
    expect((await failure(openShare(truncated, linkKey, null))).reason).toBe('tampered');
    // Another share's ciphertext served under this id (with this share's key check) fails.
    const otherShare = await sealShare(text, null);
    expect((await failure(openShare({ ...sealed, ciphertext: otherShare.sealed.ciphertext }, linkKey, null))).reason).toBe(
      'tampered',
    );
    // The same ciphertext moved to another id: the keys are bound to the id too.
    const moved: SealedShare = { ...sealed, id: crypto.randomUUID() };
    expect((await failure(openShare(moved, linkKey, null))).reason).toBe('password');
  });

  it('pads the ciphertext so texts of different lengths in one size bucket look alike', async () => {
    const a = await sealShare({ kind: 'text', text: 'a' }, null);
    const b = await sealShare({ kind: 'text', text: 'abcdef' }, null);
    expect(a.sealed.ciphertext.length).toBe(b.sealed.ciphertext.length);
  });

  it('refuses to seal content of an unknown shape or over the size limit', async () => {
    await expect(sealShare({ kind: 'file' } as unknown as ShareContent, null)).rejects.toThrow(TypeError);
    await expect(sealShare({ kind: 'text', text: 'x'.repeat(10_001) }, null)).rejects.toThrow(TypeError);
  });
});
