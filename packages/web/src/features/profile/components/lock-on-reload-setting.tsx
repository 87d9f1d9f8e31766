import { SwitchSetting } from '@/components/ui/switch-setting';
import { saveLockOnReload, useLockOnReload } from '@/lib/reload-unlock/lock-on-reload';

/**
 * "Lock on every reload": off by default, a reload keeps the vault open in this tab (decision
 * 0048). On, nothing of the vault key is kept for a reload, and what was kept is forgotten at once.
 */
export function LockOnReloadSetting() {
  return (
    <SwitchSetting
      label="Lock on every reload"
      checked={useLockOnReload()}
      onChange={saveLockOnReload}
      hint="Off: reloading this tab keeps your vault open until the auto-lock or logout; closing the tab locks it. On: every reload asks for your master password."
    />
  );
}
