import { useId } from 'react';
import { card } from '@/components/ui/styles';
import { LockOnReloadSetting } from './lock-on-reload-setting';
import { OfflineCopySetting } from './offline-copy-setting';
import { AUTO_LOCK_CHOICES, saveAutoLockMinutes, useAutoLockMinutes, type AutoLockMinutes } from '@/lib/auto-lock';

const label = (minutes: number) => (minutes === 1 ? '1 minute' : `${minutes} minutes`);

/** How long the vault stays unlocked without activity. Only the number is stored (not secret). */
export function AutoLockSetting() {
  const selectId = useId();
  const hintId = useId();
  const minutes = useAutoLockMinutes();
  return (
    <section aria-labelledby={`${selectId}-title`} className={card}>
      <h2 id={`${selectId}-title`} className="mb-4 text-xl font-semibold text-white">
        Vault Lock
      </h2>
      <div className="flex flex-wrap items-center gap-3">
        <label htmlFor={selectId} className="text-sm font-medium text-slate-300">
          Auto-lock after
        </label>
        <select
          id={selectId}
          aria-describedby={hintId}
          value={minutes}
          onChange={(event) => saveAutoLockMinutes(Number(event.target.value) as AutoLockMinutes)}
          className="rounded-lg border border-slate-700 bg-slate-800 px-3 py-2 text-white outline-none focus:border-cyan-400"
        >
          {AUTO_LOCK_CHOICES.map((choice) => (
            <option key={choice} value={choice}>
              {label(choice)}
            </option>
          ))}
        </select>
      </div>
      <p id={hintId} className="mt-3 text-sm text-slate-400">
        Without any activity for this long, Lockit forgets your vault key in this tab; your master password unlocks it again. You
        stay signed in.
      </p>
      <LockOnReloadSetting />
      <OfflineCopySetting />
    </section>
  );
}
