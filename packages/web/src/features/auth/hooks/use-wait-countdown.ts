import { useCallback, useEffect, useState } from 'react';

/**
 * A wait the server asked for (Retry-After), counted down in whole seconds for a button's
 * label. `start(seconds)` begins it; `secondsLeft` is 0 when there is nothing to wait for.
 * Each tick reads the clock, so a throttled background tab still shows the true time left.
 */
export function useWaitCountdown(): { secondsLeft: number; start: (seconds: number) => void } {
  const [until, setUntil] = useState<number | null>(null);
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    if (until === null) return;
    // Started at a whole number of seconds before `until`, so each tick lands as the number changes.
    const timer = setInterval(() => {
      const at = Date.now();
      setNow(at);
      if (at >= until) {
        clearInterval(timer);
        setUntil(null);
      }
    }, 1000);
    return () => clearInterval(timer);
  }, [until]);

  const start = useCallback((seconds: number) => {
    const at = Date.now();
    setNow(at);
    setUntil(at + seconds * 1000);
  }, []);

  const secondsLeft = until === null ? 0 : Math.max(0, Math.ceil((until - now) / 1000));
  return { secondsLeft, start };
}
