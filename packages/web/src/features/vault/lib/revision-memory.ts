import { RevisionMemory } from '@lockit/client-core';
import type { Keyring } from '@/lib/keyring';

/** One memory per tab: the keyring lives as long as the page, across locks and screens. */
const memories = new WeakMap<Keyring, RevisionMemory>();

export function revisionMemoryOf(keyring: Keyring): RevisionMemory {
  let memory = memories.get(keyring);
  if (!memory) {
    memory = new RevisionMemory();
    memories.set(keyring, memory);
  }
  return memory;
}
