import { describe, expect, it } from 'vitest';
import { Keyring } from '@/lib/keyring';
import { RevisionMemory } from '@lockit/client-core';
import { revisionMemoryOf } from './revision-memory';

const ID = '0b9c1f4e-8a51-4c55-9d47-3f1c2b7a9e10';

describe('RevisionMemory', () => {
  it('calls a revision lower than the highest noted for the entry a rollback, and nothing else', () => {
    const memory = new RevisionMemory();
    expect(memory.isRollback(ID, 1)).toBe(false);
    memory.note(ID, 3);
    expect(memory.isRollback(ID, 2)).toBe(true);
    expect(memory.isRollback(ID, 3)).toBe(false);
    expect(memory.isRollback(ID, 4)).toBe(false);
    expect(memory.isRollback('another-id', 1)).toBe(false);
  });

  it('never goes down, and treats the id without regard to case (the AAD lower-cases it too)', () => {
    const memory = new RevisionMemory();
    memory.note(ID, 5);
    memory.note(ID.toUpperCase(), 2);
    expect(memory.isRollback(ID.toUpperCase(), 4)).toBe(true);
  });

  it('is one per tab: the same for one keyring across screens and locks, separate for another', () => {
    const keyring = new Keyring();
    revisionMemoryOf(keyring).note(ID, 2);
    keyring.clear();
    expect(revisionMemoryOf(keyring).isRollback(ID, 1)).toBe(true);
    expect(revisionMemoryOf(new Keyring()).isRollback(ID, 1)).toBe(false);
  });
});
