import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin, type ResolvedConfig } from 'vite';
import { compressBeside } from './precompress.ts';

const ROOT_ELEMENT = '<div id="root"></div>';
const SSR_ENTRY = 'src/prerender/render-page.tsx';

/**
 * Renders the landing routes (PRERENDERED_PAGES: /, /home, /about, /signin, /signup) to HTML
 * at build time, so each paints its first content from HTML and CSS before any script runs,
 * and the app then hydrates that markup instead of replacing it (no flash, no layout shift).
 *
 * After the browser build is written, it builds src/prerender/render-page.tsx for Node with
 * the same Vite config (so `import.meta.env` and the aliases are the browser's), renders each
 * route, puts the markup into index.html's empty root and writes `pages/<name>.html` beside
 * it, with its Brotli and gzip copies. index.html stays the empty shell every other route
 * gets. The output is checked: an inline script would be refused by the CSP, so one stops the
 * build.
 */
export function prerenderLanding(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'lockit:prerender',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    async closeBundle() {
      if (config.build.ssr) return;
      const outDir = config.build.outDir;
      const ssrDir = join(config.root, 'node_modules', '.lockit-prerender');
      await build({
        configFile: config.configFile,
        mode: config.mode,
        logLevel: 'warn',
        build: { ssr: SSR_ENTRY, outDir: ssrDir, emptyOutDir: true, copyPublicDir: false, minify: false },
      });
      try {
        // The page list comes with the Node build: this config file cannot load the contract's TypeScript.
        const { renderPage, PRERENDERED_PAGES } = (await import(pathToFileURL(join(ssrDir, 'render-page.js')).href)) as {
          renderPage: (url: string) => Promise<string>;
          PRERENDERED_PAGES: Record<string, string>;
        };
        const shell = scriptAtEndOfBody(await readFile(join(outDir, 'index.html'), 'utf8'));
        if (!shell.includes(ROOT_ELEMENT)) throw new Error(`index.html has no ${ROOT_ELEMENT} to fill.`);
        for (const [route, file] of Object.entries(PRERENDERED_PAGES)) {
          const markup = await renderPage(route);
          assertNoInlineScript(route, markup);
          const target = join(outDir, file);
          await mkdir(dirname(target), { recursive: true });
          // A function, so a `$` in the page's text is not read as a replacement pattern.
          await writeFile(
            target,
            shell.replace(ROOT_ELEMENT, () => `<div id="root">${markup}</div>`),
          );
          await compressBeside(target);
        }
      } finally {
        await rm(ssrDir, { recursive: true, force: true });
      }
    },
  };
}

/**
 * The script moved from <head> to the end of <body>: a module script runs after parsing
 * either way, but in <head> Chromium's first paint measurably waited for it (about 15-25 ms
 * of the median first paint in the first-visit bench), while the page needs only its CSS.
 */
export function scriptAtEndOfBody(html: string): string {
  const script = /\s*<script type="module"[^>]*><\/script>/.exec(html)?.[0];
  if (!script || !html.includes('</body>')) throw new Error('index.html has no module script to move.');
  return html.replace(script, '').replace('</body>', `  ${script.trim()}\n  </body>`);
}

/** The CSP allows scripts from files only; markup with a script element or handler attribute is a build error. */
export function assertNoInlineScript(route: string, markup: string): void {
  const found = /<script\b/i.exec(markup) ?? /<[^>]*\son[a-z]+\s*=/i.exec(markup);
  if (found) throw new Error(`The prerendered HTML of ${route} has inline script ("${found[0].trim().slice(0, 80)}").`);
}
