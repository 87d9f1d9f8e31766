import { useEffect, useState } from 'react';
import { api } from '@/lib/http';

/**
 * Whether the account keeps attached files (its attachment usage is above zero), asked only
 * while `ask` is true: a plain export cannot carry files and says so. Any entry id's list
 * answers the account's usage; a fresh id lists no file and names none. False until known,
 * and when the server cannot say.
 */
export function useVaultHasFiles(ask: boolean): boolean {
  const [hasFiles, setHasFiles] = useState(false);
  useEffect(() => {
    if (!ask) return;
    let live = true;
    api.call('list-attachments', { params: { entryId: crypto.randomUUID() } }).then(
      (answer) => live && setHasFiles(answer.usage.usedBytes > 0),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [ask]);
  return hasFiles;
}
