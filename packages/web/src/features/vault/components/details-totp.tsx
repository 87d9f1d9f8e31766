import { useEffect, useMemo, useState } from 'react';
import { parseTotpSeed, totpCode, totpRemainingSeconds, type TotpSeed } from '../lib/totp';
import { FieldBox, iconButton, StaticField } from './details-field';

/**
 * The time, re-read at each whole second while mounted (the item view is open and shows a
 * one-time code), and not at all otherwise.
 */
function useSecondClock(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout>;
    const tick = () => {
      const time = Date.now();
      setNow(time);
      timer = setTimeout(tick, 1000 - (time % 1000));
    };
    timer = setTimeout(tick, 1000 - (Date.now() % 1000));
    return () => clearTimeout(timer);
  }, []);
  return now;
}

export function TotpField({ seedText, copied, onCopy }: { seedText: string; copied: boolean; onCopy: (code: string) => void }) {
  const seed = useMemo<TotpSeed | null>(() => {
    try {
      return parseTotpSeed(seedText);
    } catch {
      return null;
    }
  }, [seedText]);
  if (seed === null)
    return <StaticField label="One-time code" value="The saved secret is not a valid TOTP secret. Edit the entry to fix it." />;
  return <LiveTotp seed={seed} copied={copied} onCopy={onCopy} />;
}

function LiveTotp({ seed, copied, onCopy }: { seed: TotpSeed; copied: boolean; onCopy: (code: string) => void }) {
  const now = useSecondClock();
  const code = totpCode(seed, now);
  const remaining = totpRemainingSeconds(seed, now);
  return (
    <FieldBox
      label="One-time code"
      buttons={
        <button
          type="button"
          className={iconButton}
          aria-label={copied ? 'One-time code copied' : 'Copy one-time code'}
          data-icon={copied ? 'check' : 'copy'}
          onClick={() => onCopy(totpCode(seed, Date.now()))}
        />
      }
    >
      <span className="flex items-center gap-3">
        <span className="font-mono text-xl tracking-widest text-white" data-testid="totp-code">
          {code}
        </span>
        <span className="text-sm text-slate-400 tabular-nums" title="Seconds until the code changes">
          {remaining} s
        </span>
        <span aria-hidden="true" className="h-1.5 w-16 overflow-hidden rounded-full bg-slate-800">
          <span
            className={`block h-full ${remaining <= 5 ? 'bg-amber-400' : 'bg-cyan-500'}`}
            style={{ width: `${(remaining / seed.period) * 100}%` }}
          />
        </span>
      </span>
    </FieldBox>
  );
}
