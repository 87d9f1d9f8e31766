import type { AddEntryRequest } from '@lockit/contract';
import { describe, expect, it } from 'vitest';
import { bodySize, chunkEntries } from './batch-chunks';

const entry = (i: number, notes = ''): AddEntryRequest => ({
  id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  serviceName: 'v1.a.b',
  username: 'v1.a.b',
  password: 'v1.a.b',
  overview: 'v1.a.b',
  ...(notes ? { notes } : {}),
});

describe('chunkEntries', () => {
  it('cuts 1,234 entries into calls of at most 500, in order, dropping none', () => {
    const entries = Array.from({ length: 1234 }, (_, i) => entry(i));
    const chunks = chunkEntries(entries);
    expect(chunks.map((chunk) => chunk.length)).toEqual([500, 500, 234]);
    expect(chunks.flat()).toEqual(entries);
  });

  it('also cuts by body size, and a single entry bigger than the target still travels alone', () => {
    const entries = [entry(1, 'x'.repeat(600)), entry(2, 'x'.repeat(600)), entry(3, 'x'.repeat(2000)), entry(4)];
    const chunks = chunkEntries(entries, 500, 1500);
    expect(chunks.map((chunk) => chunk.map((e) => e.id.slice(-1)))).toEqual([['1', '2'], ['3'], ['4']]);
    expect(bodySize(entries[2]!)).toBeGreaterThan(1500);
  });
});
