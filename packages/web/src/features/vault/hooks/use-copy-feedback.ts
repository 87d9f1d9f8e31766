import { useCallback, useEffect, useRef, useState } from 'react';
import { logFailure } from '@/lib/log';
import { copyWithClear } from '@/lib/clipboard';

/** The spec's copy indicator: a check for 2 s. */
export const COPY_CHECK_MS = 2_000;

/**
 * Copies through copyWithClear and remembers, per key (an entry id, a field of the open
 * entry), what was copied in the last 2 s, so its button shows a check. `what` names the
 * copied thing in the log line of a failure ("Copying a password failed: …"); nothing copied
 * is ever logged.
 */
export function useCopyFeedback<Value extends string>() {
  const [copied, setCopied] = useState<ReadonlyMap<string, Value>>(() => new Map());
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());

  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending.values()) clearTimeout(timer);
      pending.clear();
    };
  }, []);

  /** Resolves true once copied; false when there was nothing to copy or the clipboard refused. */
  const copy = useCallback(async (key: string, value: Value, text: string | null | Promise<string | null>, what: string) => {
    let plain: string | null;
    try {
      plain = await text;
    } catch (error) {
      logFailure(`Copying ${what}`, error);
      return false;
    }
    if (plain === null) return false;
    try {
      // After the delay chosen in Profile (30 s unless changed), and only if it still holds `plain`.
      await copyWithClear(plain);
    } catch (error) {
      logFailure(`Copying ${what}`, error);
      return false;
    }
    setCopied((current) => new Map(current).set(key, value));
    clearTimeout(timers.current.get(key));
    timers.current.set(
      key,
      setTimeout(() => {
        timers.current.delete(key);
        setCopied((current) => {
          const next = new Map(current);
          next.delete(key);
          return next;
        });
      }, COPY_CHECK_MS),
    );
    return true;
  }, []);

  return { copied, copy };
}
