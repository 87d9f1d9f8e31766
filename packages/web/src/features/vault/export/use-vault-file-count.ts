import { useEffect, useState } from 'react';
import { api } from '@/lib/http';

/**
 * How many finished files the account keeps (one call listing them all, still sealed): the
 * encrypted backup says it carries them, a plain export says it cannot. Null until known,
 * and when the server cannot say.
 */
export function useVaultFileCount(): number | null {
  const [count, setCount] = useState<number | null>(null);
  useEffect(() => {
    let live = true;
    api.call('list-account-attachments', {}).then(
      (answer) => live && setCount(answer.data.filter((file) => file.finished).length),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  return count;
}
