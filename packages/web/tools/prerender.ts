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
 * gets. All of it once per sign-up mode (decision 0044): open mode's as named, the others'
 * under `pages/<mode>/` (`pages/invite/index.html` is invite mode's shell), each with the
 * mode in a meta element. The output is checked: an inline script would be refused by the CSP, so one stops the
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
        const { renderPage, PRERENDERED_PAGES, SIGNUP_MODES, SIGNUP_MODE_META, pageFileFor } = (await import(
          pathToFileURL(join(ssrDir, 'render-page.js')).href
        )) as {
          renderPage: (url: string, mode: string) => Promise<string>;
          PRERENDERED_PAGES: Record<string, string>;
          SIGNUP_MODES: readonly string[];
          SIGNUP_MODE_META: string;
          pageFileFor: (route: string | null, mode: string) => string;
        };
        const plainShell = await readFile(join(outDir, 'index.html'), 'utf8');
        if (!plainShell.includes(ROOT_ELEMENT)) throw new Error(`index.html has no ${ROOT_ELEMENT} to fill.`);
        // Each sign-up mode gets its own copy of every page and of the shell, the mode written in
        // (decision 0044); the server sends the copies of its mode. Open mode's are the usual files.
        for (const mode of SIGNUP_MODES) {
          const modeShell = withSignupModeMeta(plainShell, SIGNUP_MODE_META, mode);
          await writePage(join(outDir, pageFileFor(null, mode)), modeShell);
          const shell = scriptAtEndOfBody(modeShell);
          for (const route of Object.keys(PRERENDERED_PAGES)) {
            const markup = await renderPage(route, mode);
            assertNoInlineScript(route, markup);
            // A function, so a `$` in the page's text is not read as a replacement pattern.
            const html = shell.replace(ROOT_ELEMENT, () => `<div id="root">${markup}</div>`);
            await writePage(join(outDir, pageFileFor(route, mode)), html);
          }
        }
      } finally {
        await rm(ssrDir, { recursive: true, force: true });
      }
    },
  };
}

async function writePage(target: string, html: string): Promise<void> {
  await mkdir(dirname(target), { recursive: true });
  await writeFile(target, html);
  await compressBeside(target);
}

/** The shell with `<meta name="{name}" content="{mode}">` at the end of <head>: the page's sign-up mode. */
export function withSignupModeMeta(html: string, name: string, mode: string): string {
  if (!html.includes('</head>')) throw new Error('index.html has no </head> to put the sign-up mode in.');
  if (!/^[a-z-]+$/.test(name) || !/^[a-z]+$/.test(mode)) throw new Error(`Not a meta name and mode: ${name}, ${mode}.`);
  return html.replace('</head>', `  <meta name="${name}" content="${mode}" />\n  </head>`);
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
