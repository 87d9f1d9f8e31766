import { describe, expect, it } from 'vitest';
import { sealedAttachmentSize, sealShareLabel } from '@lockit/crypto';
import type { ShareLink } from '@lockit/contract';
import { labelLinks, linkDetails, NO_LABEL, UNREADABLE_LABEL } from './shared-link-labels';

const newKey = () => globalThis.crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);

function link(id: string, label: string | null): ShareLink {
  return {
    id,
    createdAt: '2026-11-28T04:00:00.000Z',
    expiresAt: '2026-11-29T04:00:00.000Z',
    maxOpenings: 1,
    openingsLeft: 1,
    deleteAfterOpening: false,
    needsPassword: false,
    label,
  };
}

const IDS = [
  '0b6f9d4e-8a3c-4f2e-9d1a-5c7b8e9f0a1b',
  '1c7a0e5f-9b4d-4a3f-8e2b-6d8c9f0a1b2c',
  '2d8b1f60-ac5e-4b40-9f3c-7e9d0a1b2c3d',
];

describe("the owner's list of share links", () => {
  it("names each link by its sealed label and puts this item's links first", async () => {
    const key = await newKey();
    const links = [
      link(IDS[0]!, await sealShareLabel(key, IDS[0]!, { itemId: 'wifi', title: 'Copy of Guest Wifi' })),
      link(IDS[1]!, await sealShareLabel(key, IDS[1]!, { itemId: 'deploy', title: 'Copy of Deploy key' })),
      link(IDS[2]!, null),
    ];
    const shown = await labelLinks(links, key, 'deploy');
    expect(shown.map(({ title, ofThisItem }) => [title, ofThisItem])).toEqual([
      ['Copy of Deploy key', true],
      ['Copy of Guest Wifi', false],
      [NO_LABEL, false],
    ]);
  });

  it('shows no title the server chose: a label under another key, or swapped between links, is unreadable', async () => {
    const key = await newKey();
    const mine = await sealShareLabel(key, IDS[0]!, { itemId: 'wifi', title: 'Copy of Guest Wifi' });
    const foreign = await sealShareLabel(await newKey(), IDS[1]!, { itemId: 'wifi', title: 'Pay the attacker' });
    const shown = await labelLinks([link(IDS[1]!, mine), link(IDS[0]!, foreign)], key, 'wifi');
    expect(shown.map(({ title, ofThisItem }) => [title, ofThisItem])).toEqual([
      [UNREADABLE_LABEL, false],
      [UNREADABLE_LABEL, false],
    ]);
  });
});

describe("a link's details in the owner's list", () => {
  const date = (iso: string) => iso.slice(0, 10);

  it('says the openings left, the password and the expiry', () => {
    expect(linkDetails({ ...link(IDS[0]!, null), maxOpenings: 3, openingsLeft: 2, needsPassword: true }, date)).toBe(
      '2 of 3 openings left · password · expires 2026-11-29',
    );
    expect(linkDetails({ ...link(IDS[0]!, null), openingsLeft: 0 }, date)).toBe('Used up · expires 2026-11-29');
  });

  it("names a shared file's size from its sealed size, and an upload that never finished", () => {
    const file = { size: sealedAttachmentSize(3 * 1024 * 1024 + 100_000), finished: true };
    expect(linkDetails({ ...link(IDS[0]!, null), file }, date)).toBe(
      '1 of 1 openings left · a file of 3.1 MB · expires 2026-11-29',
    );
    expect(linkDetails({ ...link(IDS[0]!, null), file: { ...file, finished: false } }, date)).toBe(
      '1 of 1 openings left · a file of 3.1 MB · upload not finished: the link does not open · expires 2026-11-29',
    );
  });

  it('says only "a file" for a sealed size no file has, rather than a made-up size', () => {
    expect(linkDetails({ ...link(IDS[0]!, null), file: { size: 27, finished: true } }, date)).toBe(
      '1 of 1 openings left · a file · expires 2026-11-29',
    );
  });
});
