// The web app's code as this release builds it: the SHA-256 of every script, stylesheet and
// WebAssembly file under the web app's build output (packages/web/dist), keyed by the path the
// server serves it at. The extension embeds this list and compares what a Lockit server
// actually serves against it (src/shared/served-code.ts, decision 0082).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';

/** Files a page runs or styles itself with; HTML is not listed (see decision 0082). */
const CODE = /\.(?:m?js|css|wasm)$/;

/**
 * `{ "/assets/index-abc.js": "<base64 sha-256>", ... }` for every code file of `webDist`.
 * Throws when the web app is not built: an extension without the list could check nothing.
 */
export function webAppFiles(webDist) {
  if (!existsSync(join(webDist, 'index.html'))) {
    throw new Error(
      `The web app is not built at ${webDist}: the extension embeds the hashes of its scripts. Run \`npm run build\` (it builds the web app first).`,
    );
  }
  const files = {};
  for (const file of readdirSync(webDist, { recursive: true, encoding: 'utf8' }).sort()) {
    const path = join(webDist, file);
    if (!CODE.test(file) || !statSync(path).isFile()) continue;
    files[`/${file.split(sep).join('/')}`] = createHash('sha256').update(readFileSync(path)).digest('base64');
  }
  if (Object.keys(files).length === 0) throw new Error(`No script in the web app build at ${webDist}.`);
  return files;
}
