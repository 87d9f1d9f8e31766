import { describe, expect, it } from 'vitest';
import { fromBase64Url, toBase64Url } from '../encoding';
import { openShareLabel, sealShareLabel, SHARE_LABEL_TITLE_MAX_CHARS } from './index';

const newKey = () => globalThis.crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
const LINK = '0b6f9d4e-8a3c-4f2e-9d1a-5c7b8e9f0a1b';
const OTHER_LINK = '1c7a0e5f-9b4d-4a3f-8e2b-6d8c9f0a1b2c';

describe("a share link's owner label", () => {
  it('opens under the vault key it was sealed with, for the link it was sealed for', async () => {
    const key = await newKey();
    const sealed = await sealShareLabel(key, LINK, { itemId: 'item-1', title: 'Guest Wifi' });
    expect(sealed).not.toContain('Guest');
    expect(await openShareLabel(key, LINK, sealed)).toEqual({ itemId: 'item-1', title: 'Guest Wifi' });
  });

  it('opens as nothing under another key (sealed before a rotation), for another link, or changed by a bit', async () => {
    const key = await newKey();
    const sealed = await sealShareLabel(key, LINK, { itemId: null, title: 'A text' });
    expect(await openShareLabel(await newKey(), LINK, sealed)).toBeNull();
    expect(await openShareLabel(key, OTHER_LINK, sealed)).toBeNull();
    const parts = sealed.split('.');
    const data = fromBase64Url(parts[2]!);
    data[0]! ^= 1;
    expect(await openShareLabel(key, LINK, [parts[0], parts[1], toBase64Url(data)].join('.'))).toBeNull();
    expect(await openShareLabel(key, LINK, 'not a ciphertext')).toBeNull();
  });

  it('keeps a long name to its cap', async () => {
    const key = await newKey();
    const sealed = await sealShareLabel(key, LINK, { itemId: null, title: 'x'.repeat(500) });
    expect((await openShareLabel(key, LINK, sealed))?.title).toHaveLength(SHARE_LABEL_TITLE_MAX_CHARS);
  });
});
