import { z } from 'zod';
import { useAccountDocument } from '@/lib/account-documents';

/**
 * The 'health-settings' account document (encrypted under the vault key, bound to the
 * account and the kind, like every saved thing): whether the person opted in to the breach
 * check, and the items they excluded from the report. Both are choices the server must not
 * learn, so they are not plain columns.
 */
export const healthSettingsSchema = z.strictObject({
  v: z.literal(1),
  breachCheck: z.boolean(),
  excluded: z.array(z.uuid()).max(100_000),
});
export type HealthSettings = z.infer<typeof healthSettingsSchema>;

/** Off by default: nothing leaves the browser for the breach check until the person says so. */
export const EMPTY_HEALTH_SETTINGS: HealthSettings = { v: 1, breachCheck: false, excluded: [] };

export function useHealthSettings() {
  return useAccountDocument<HealthSettings>('health-settings', healthSettingsSchema, EMPTY_HEALTH_SETTINGS);
}

/** The settings with `id` excluded (`exclude`) or counted again. */
export function withExclusion(settings: HealthSettings, id: string, exclude: boolean): HealthSettings {
  const rest = settings.excluded.filter((excluded) => excluded !== id);
  return { ...settings, excluded: exclude ? [...rest, id] : rest };
}
