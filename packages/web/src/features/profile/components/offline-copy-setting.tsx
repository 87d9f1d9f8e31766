import { useId } from 'react';
import { eraseOfflineCopies } from '@/lib/offline/offline-copies';
import { saveKeepOfflineCopy, useKeepOfflineCopy } from '@/lib/offline/keep-offline-copy';

/**
 * "Keep an offline copy on this device": on by default, each load of the vault keeps what the
 * server served (encrypted) in IndexedDB, so Unlock works with the server down. Off, the copy
 * is erased at once and none is kept.
 */
export function OfflineCopySetting() {
  const id = useId();
  const keep = useKeepOfflineCopy();
  return (
    <div className="mt-4">
      <label htmlFor={id} className="flex items-center gap-3 text-sm font-medium text-slate-300">
        <input
          id={id}
          type="checkbox"
          role="switch"
          aria-describedby={`${id}-hint`}
          checked={keep}
          onChange={(event) => {
            saveKeepOfflineCopy(event.target.checked);
            if (!event.target.checked) void eraseOfflineCopies();
          }}
          className="h-4 w-4 accent-cyan-400"
        />
        Keep an offline copy on this device
      </label>
      <p id={`${id}-hint`} className="mt-2 text-sm text-slate-400">
        On: your vault, still encrypted, is kept in this browser so your master password unlocks it when your Lockit server cannot
        be reached. Off: nothing is kept, and the copy is erased now. Logout always erases it.
      </p>
    </div>
  );
}
