import { apiThroughputBench } from './benches/api-throughput';

/** `npm run bench` runs every bench; `npm run bench -w @lockit/bench -- api` runs one. */
const benches: Record<string, () => Promise<void>> = {
  api: () => apiThroughputBench(),
  'api:sqlite': () => apiThroughputBench(['sqlite']),
  'api:postgres': () => apiThroughputBench(['postgres']),
};

const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !(name in benches));
if (unknown.length > 0) {
  console.error(`Unknown bench ${unknown.join(', ')}. Benches: ${Object.keys(benches).join(', ')}`);
  process.exit(2);
}
for (const name of asked.length > 0 ? asked : ['api']) await benches[name]?.();
