import { apiThroughputBench } from './benches/api-throughput';
import { attachmentsBench } from './benches/attachments';
import { cliBench } from './benches/cli';
import { exportBench } from './benches/export';
import { extensionBench } from './benches/extension';
import { firstVisitBench } from './benches/first-visit';
import { generatorBench } from './benches/generator';
import { growthBench } from './benches/growth';
import { importBench } from './benches/import';
import { keyRotationBench } from './benches/key-rotation';
import { liveSyncBench } from './benches/live-sync';
import { offlineBench } from './benches/offline';
import { signInCostBench } from './benches/sign-in-cost';
import { soakBench } from './benches/soak';
import { vaultBrowserBench } from './benches/vault-browser';
import { vaultHealthBench } from './benches/vault-health';

/**
 * `npm run bench` runs the five benches of docs/performance.md; `npm run bench -- api vault`
 * runs chosen ones. The soak is a load test, not a budget, so it runs only when named.
 */
const benches: Record<string, () => Promise<void>> = {
  api: () => apiThroughputBench(),
  'api:sqlite': () => apiThroughputBench(['sqlite']),
  'api:postgres': () => apiThroughputBench(['postgres']),
  'sign-in': () => signInCostBench(),
  vault: () => vaultBrowserBench(),
  health: () => vaultHealthBench(),
  generator: () => generatorBench(),
  cli: () => cliBench(),
  extension: () => extensionBench(),
  'first-visit': () => firstVisitBench(),
  growth: () => growthBench(),
  export: () => exportBench(),
  import: () => importBench(),
  rotation: () => keyRotationBench(),
  attachments: () => attachmentsBench(),
  sync: () => liveSyncBench(),
  offline: () => offlineBench(),
  'sync:sqlite': () => liveSyncBench(['sqlite']),
  'sync:postgres': () => liveSyncBench(['postgres']),
  soak: () => soakBench(['sqlite', 'postgres']),
  'soak:sqlite': () => soakBench(['sqlite']),
  'soak:postgres': () => soakBench(['postgres']),
};
const DEFAULT = ['api', 'sign-in', 'vault', 'first-visit', 'growth'];

const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !(name in benches));
if (unknown.length > 0) {
  console.error(`Unknown bench ${unknown.join(', ')}. Benches: ${Object.keys(benches).join(', ')}`);
  process.exit(2);
}
for (const name of asked.length > 0 ? asked : DEFAULT) await benches[name]?.();
