import { useCallback, useEffect, useRef, useState } from 'react';
import { logFailure } from '@/lib/log';
import { openPassword } from '@lockit/client-core';
import type { OpenEntry } from '@lockit/client-core';

/** The spec's copy indicator. */
export const COPIED_INDICATOR_MS = 2_000;

/**
 * Reveal and copy, per entry. A password is decrypted only when revealed or copied, and its
 * plaintext is kept only while revealed (in this state, never anywhere else).
 * `onDamaged` is called when the password does not decrypt.
 */
export function useRevealedPasswords(vaultKey: CryptoKey, onDamaged: (entry: OpenEntry) => void) {
  const [revealed, setRevealed] = useState<ReadonlyMap<string, string>>(() => new Map());
  const [copied, setCopied] = useState<ReadonlySet<string>>(() => new Set());
  const copyTimers = useRef(new Map<string, ReturnType<typeof setTimeout>>());

  useEffect(() => {
    const timers = copyTimers.current;
    return () => {
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
    };
  }, []);

  const hide = useCallback((id: string) => {
    setRevealed((current) => {
      if (!current.has(id)) return current;
      const next = new Map(current);
      next.delete(id);
      return next;
    });
  }, []);

  /** The password, or null when it did not decrypt (the entry is then reported damaged). */
  const open = useCallback(
    async (entry: OpenEntry): Promise<string | null> => {
      try {
        return await openPassword(vaultKey, entry);
      } catch {
        hide(entry.id);
        onDamaged(entry);
        return null;
      }
    },
    [vaultKey, hide, onDamaged],
  );

  const toggleReveal = useCallback(
    async (entry: OpenEntry, isRevealed: boolean) => {
      if (isRevealed) {
        hide(entry.id);
        return;
      }
      const password = await open(entry);
      if (password !== null) setRevealed((current) => new Map(current).set(entry.id, password));
    },
    [hide, open],
  );

  const copy = useCallback(
    async (entry: OpenEntry, revealedPassword: string | undefined) => {
      const password = revealedPassword ?? (await open(entry));
      if (password === null) return;
      try {
        await navigator.clipboard.writeText(password);
      } catch (error) {
        logFailure('Copying a password', error);
        return;
      }
      setCopied((current) => new Set(current).add(entry.id));
      clearTimeout(copyTimers.current.get(entry.id));
      copyTimers.current.set(
        entry.id,
        setTimeout(() => {
          copyTimers.current.delete(entry.id);
          setCopied((current) => {
            const next = new Set(current);
            next.delete(entry.id);
            return next;
          });
        }, COPIED_INDICATOR_MS),
      );
    },
    [open],
  );

  return { revealed, copied, toggleReveal, copy, hide };
}
