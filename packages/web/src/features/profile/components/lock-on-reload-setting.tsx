import { useId } from 'react';
import { saveLockOnReload, useLockOnReload } from '@/lib/reload-unlock/lock-on-reload';

/**
 * "Lock on every reload": off by default, a reload keeps the vault open in this tab (decision
 * 0048). On, nothing of the vault key is kept for a reload, and what was kept is forgotten at once.
 */
export function LockOnReloadSetting() {
  const id = useId();
  const lock = useLockOnReload();
  return (
    <div className="mt-4">
      <label htmlFor={id} className="flex items-center gap-3 text-sm font-medium text-slate-300">
        <input
          id={id}
          type="checkbox"
          role="switch"
          aria-describedby={`${id}-hint`}
          checked={lock}
          onChange={(event) => saveLockOnReload(event.target.checked)}
          className="h-4 w-4 accent-cyan-400"
        />
        Lock on every reload
      </label>
      <p id={`${id}-hint`} className="mt-2 text-sm text-slate-400">
        Off: reloading this tab keeps your vault open until the auto-lock or logout; closing the tab locks it. On: every reload
        asks for your master password.
      </p>
    </div>
  );
}
