import { SwitchSetting } from '@/components/ui/switch-setting';
import { eraseOfflineCopies } from '@/lib/offline/offline-copies';
import { saveKeepOfflineCopy, useKeepOfflineCopy } from '@/lib/offline/keep-offline-copy';

/**
 * "Keep an offline copy on this device": on by default, each load of the vault keeps what the
 * server served (encrypted) in IndexedDB, so Unlock works with the server down. Off, the copy
 * is erased at once and none is kept.
 */
export function OfflineCopySetting() {
  return (
    <SwitchSetting
      label="Keep an offline copy on this device"
      checked={useKeepOfflineCopy()}
      onChange={(keep) => {
        saveKeepOfflineCopy(keep);
        if (!keep) void eraseOfflineCopies();
      }}
      hint="On: your vault, still encrypted, is kept in this browser so your master password unlocks it when your Lockit server cannot be reached. Off: nothing is kept, and the copy is erased now. Logout always erases it."
    />
  );
}
