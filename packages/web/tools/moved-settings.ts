/**
 * The credit and social links were the VITE_LOCKIT_* build variables; they are the server's
 * LOCKIT_* settings now (decision 0082), so the scripts are the same for every operator. A
 * build still given an old name stops with the new one, rather than silently leaving it out.
 * Throws for any VITE_LOCKIT_* variable in `env` (Vite's loadEnv with that prefix).
 */
export function refuseMovedSettings(env: Record<string, string>): void {
  const moved = Object.keys(env).filter((name) => name.startsWith('VITE_LOCKIT_'));
  if (moved.length === 0) return;
  const renamed = moved.map((name) => name.replace(/^VITE_/, ''));
  throw new Error(
    `${moved.join(', ')}: the credit and social links are settings of the server now. Set ${renamed.join(', ')} where the server runs instead (docs/configuration.md).`,
  );
}
