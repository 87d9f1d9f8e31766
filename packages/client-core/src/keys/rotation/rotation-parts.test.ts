import { KEY_ROTATION_PART_MAX_BYTES, KEY_ROTATION_PART_MAX_ITEMS, keyRotationPartRequestSchema } from '@lockit/contract';
import { describe, expect, it } from 'vitest';
import type { ResealedUnit } from './reseal';
import { rotationParts } from './rotation-parts';

const text = (length: number) => `v2.AAAAAAAAAAAAAAAA.${'A'.repeat(length)}`;
const entry = (i: number, notes = 16): ResealedUnit => ({
  type: 'entry',
  entry: {
    id: crypto.randomUUID(),
    serviceName: text(64),
    username: text(64),
    password: text(64),
    url: null,
    notes: text(64 + notes + (i % 2)),
    overview: text(64),
    details: null,
  },
  versions: [],
  elements: { before: new Uint8Array(32), after: new Uint8Array(32) },
  trashed: false,
});

describe('rotationParts', () => {
  it('puts at most KEY_ROTATION_PART_MAX_ITEMS items in a part, and every item in one part', () => {
    const units = Array.from({ length: 1_201 }, (_, i) => entry(i));
    const parts = rotationParts(units);
    expect(parts.map(({ part }) => part.entries?.length)).toEqual([
      KEY_ROTATION_PART_MAX_ITEMS,
      KEY_ROTATION_PART_MAX_ITEMS,
      201,
    ]);
    expect(parts.reduce((sum, { items }) => sum + items, 0)).toBe(1_201);
    for (const { part } of parts) expect(keyRotationPartRequestSchema.safeParse(part).success).toBe(true);
  });

  it('keeps every part body within KEY_ROTATION_PART_MAX_BYTES', () => {
    // 60 KiB of notes each: 500 of them would be 30 MiB.
    const units = Array.from({ length: 200 }, (_, i) => entry(i, 60 * 1024));
    const parts = rotationParts(units);
    expect(parts.length).toBeGreaterThan(2);
    for (const { part } of parts)
      expect(new TextEncoder().encode(JSON.stringify(part)).length).toBeLessThanOrEqual(KEY_ROTATION_PART_MAX_BYTES);
    expect(parts.flatMap(({ part }) => part.entries ?? [])).toHaveLength(200);
  });

  it('sends versions, folders and documents in parts of their own kind, counting versions as no items', () => {
    const withVersions: ResealedUnit = {
      type: 'entry',
      entry: { id: 'e', serviceName: 's', username: 'u', password: 'p', url: null, notes: null, overview: null, details: null },
      versions: [
        {
          entryId: 'e',
          revision: 1,
          serviceName: 's',
          username: 'u',
          password: 'p',
          url: null,
          notes: null,
          overview: null,
          details: null,
        },
      ],
      elements: { before: new Uint8Array(32), after: new Uint8Array(32) },
      trashed: false,
    };
    const parts = rotationParts([
      withVersions,
      { type: 'folder', folder: { id: 'f', name: 'n' }, elements: { before: new Uint8Array(32), after: new Uint8Array(32) } },
      { type: 'document', document: { kind: 'generator-history', document: 'd' } },
    ]);
    expect(parts.map(({ part, items }) => [Object.keys(part), items])).toEqual([
      [['entries'], 1],
      [['versions'], 0],
      [['folders'], 1],
      [['documents'], 1],
    ]);
  });
});
