import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import type { OpenEntry } from '@lockit/client-core';
import type { VaultEntriesState } from './use-vault-entries';

/**
 * `/vault?edit=<id>&generate=1` (the health report's "Change"): once the list is ready, opens
 * that entry's edit dialog, with the generator showing when asked, and drops the two parameters
 * so a reload or Back does not open it again. An id that is not an open entry opens nothing.
 */
export function useEditFromAddress(state: VaultEntriesState, openEdit: (entry: OpenEntry, generate: boolean) => void): void {
  const [params, setParams] = useSearchParams();
  const editId = params.get('edit');
  const generate = params.get('generate') === '1';
  useEffect(() => {
    if (editId === null || state.status !== 'ready') return;
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('edit');
        next.delete('generate');
        return next;
      },
      { replace: true },
    );
    const entry = state.entries.find((candidate) => candidate.id === editId);
    if (entry?.status === 'open' && entry.deletedAt === null) openEdit(entry, generate);
  }, [editId, generate, state, openEdit, setParams]);
}
