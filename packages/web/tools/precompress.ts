import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Text the server sends; images other than SVG and fonts are compressed already. */
const COMPRESSIBLE = /\.(?:html|js|mjs|css|svg|json|txt|xml|webmanifest|wasm)$/;

/**
 * Writes a Brotli (.br, quality 11) and a gzip (.gz, level 9) copy beside every built text
 * file, once, at build time: the server sends the copy the browser accepts
 * (@fastify/static's preCompressed), so no request pays for compression and the strongest
 * settings cost nothing at run time. A copy that would not be smaller is not written: the
 * server then sends the file itself.
 */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'lockit:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.ssr ? '' : config.build.outDir;
    },
    // After every file is written, the public folder's (robots.txt, favicon.svg) included. The
    // prerendered pages are written later and compressed by tools/prerender.ts; the Node build
    // of the prerender is not served.
    async closeBundle() {
      if (outDir === '') return;
      const files = (await readdir(outDir, { recursive: true })).filter((file) => COMPRESSIBLE.test(file));
      await Promise.all(files.map((file) => compressBeside(join(outDir, file))));
    },
  };
}

export async function compressBeside(file: string): Promise<void> {
  const bytes = await readFile(file);
  const [br, gz] = await Promise.all([
    brotli(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
    gzipAsync(bytes, { level: constants.Z_BEST_COMPRESSION }),
  ]);
  await Promise.all([
    br.length < bytes.length ? writeFile(`${file}.br`, br) : undefined,
    gz.length < bytes.length ? writeFile(`${file}.gz`, gz) : undefined,
  ]);
}
