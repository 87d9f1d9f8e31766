import { useEffect } from 'react';
import { useAutoLockMinutes } from './auto-lock';
import { useKeyring, useUnlockedVault } from './keyring-context';

/** What counts as the person being there. Scroll does not bubble, hence the capture phase. */
const ACTIVITY_EVENTS = ['pointerdown', 'pointermove', 'keydown', 'wheel', 'touchstart', 'scroll', 'focusin'] as const;

/**
 * The idle lock, for the whole app (mounted once in the app's providers, so it runs on every
 * page). After the chosen number of minutes (Profile, default 15) without pointer, key,
 * scroll or focus activity it clears the keyring: the vault key is forgotten, the session
 * stays, and the vault asks for the master password again.
 *
 * Activity only records a time stamp (cheap on every pointer move); one timer checks the
 * elapsed time, so a tab whose timers were throttled or a machine that slept still locks as
 * soon as it runs again, and a tab coming back into view is checked at once. A new choice of
 * minutes applies at once, counted from the last activity.
 */
export function useIdleLock(): void {
  const keyring = useKeyring();
  const unlocked = useUnlockedVault() !== null;
  // Read only while there is a vault to lock.
  const minutes = useAutoLockMinutes(unlocked);

  useEffect(() => {
    if (!unlocked) return;
    // Kept on the keyring, which an unlock or a reload's restore sets, so a reload keeps counting.
    const onActivity = () => keyring.noteActivity();
    for (const name of ACTIVITY_EVENTS) window.addEventListener(name, onActivity, { capture: true, passive: true });
    return () => {
      for (const name of ACTIVITY_EVENTS) window.removeEventListener(name, onActivity, { capture: true });
    };
  }, [keyring, unlocked]);

  useEffect(() => {
    if (!unlocked) return;
    const limitMs = minutes * 60_000;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const check = () => {
      clearTimeout(timer);
      const idleMs = Date.now() - keyring.lastActivityAt;
      if (idleMs >= limitMs) keyring.clear();
      else timer = setTimeout(check, limitMs - idleMs);
    };
    const onVisibility = () => {
      if (document.visibilityState === 'visible') check();
    };
    check();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [keyring, unlocked, minutes]);
}
