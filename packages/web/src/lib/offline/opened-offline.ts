import type { OfflineCopy } from '@lockit/client-core';
import { rememberServedList } from '@/api/list-entries';

/** The copy's list, filed with the vault state it carries, so it is checked as a served list is. */
export function offlineList(copy: OfflineCopy): unknown[] {
  const list = [...copy.entries];
  rememberServedList(list, copy.vaultState);
  return list;
}
