import { useCallback } from 'react';
import { useAccountDocument, type AccountDocumentUpdate } from '@/lib/account-documents';
import { EMPTY_GENERATOR_HISTORY, generatorHistorySchema, withGenerated } from '@/lib/generator';

/**
 * The generator history of the signed-in account: the 'generator-history' account document,
 * encrypted and on every device, so a password generated for a site whose save failed is
 * never lost. Every value that is used or copied is recorded, newest first.
 */
export function useGeneratorHistory() {
  const document = useAccountDocument('generator-history', generatorHistorySchema, EMPTY_GENERATOR_HISTORY);
  const { update } = document;
  /** `replacing`: a value recorded before that this one takes the place of (withGenerated). */
  const record = useCallback(
    (value: string, item?: string, replacing?: string): Promise<AccountDocumentUpdate> =>
      update((history) => withGenerated(history, { value, at: new Date().toISOString(), ...(item ? { item } : {}) }, replacing)),
    [update],
  );
  const clear = useCallback(() => update(() => EMPTY_GENERATOR_HISTORY), [update]);
  return { status: document.status, entries: document.value.entries, record, clear, reset: document.reset };
}
