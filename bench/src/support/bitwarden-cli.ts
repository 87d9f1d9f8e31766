import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '@lockit/test-support';

/** The Bitwarden command line the cli bench compares with: pinned, so runs compare alike. */
export const BITWARDEN_CLI_VERSION = '2026.9.0';

/**
 * The path of `bw`'s entry script (npm package @bitwarden/cli), installed on first use into a
 * cache folder of the repo's node_modules rather than as a dependency of the bench: it brings
 * over 200 packages (jsdom, koa, …) that no other workspace needs. Null, with the reason
 * printed, when it cannot be installed (no registry).
 */
export function bitwardenCli(): string | null {
  const prefix = join(repoRoot, 'node_modules/.cache/lockit-bench/bitwarden-cli');
  const script = join(prefix, 'node_modules/@bitwarden/cli/build/bw.js');
  if (existsSync(script)) return script;
  const install = spawnSync(
    'npm',
    [
      'install',
      '--prefix',
      prefix,
      '--no-save',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
      `@bitwarden/cli@${BITWARDEN_CLI_VERSION}`,
    ],
    { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] },
  );
  if (install.status === 0 && existsSync(script)) return script;
  console.warn(`@bitwarden/cli could not be installed, so it is left out: ${install.stderr.trim().split('\n').at(-1) ?? ''}`);
  return null;
}
