import type { Plugin } from 'vite';

/** kdbxweb's one build is a UMD bundle that `require`s Node's `crypto`, from this file. */
const KDBXWEB = /[\\/]node_modules[\\/]kdbxweb[\\/]/;
const STAND_IN = '\0lockit:kdbxweb-node-crypto';

/**
 * What kdbxweb gets for `require("crypto")` in a browser build. It calls Node's crypto only where
 * `globalThis.crypto.subtle` is missing (SHA-256/512, HMAC, AES-CBC, random bytes); every page
 * and worker of Lockit runs in a secure context with WebCrypto, so these are never reached. If
 * one ever were, it says so instead of failing on an undefined function.
 */
const STAND_IN_SOURCE = ['createHash', 'createHmac', 'createCipheriv', 'createDecipheriv', 'randomBytes']
  .map(
    (name) =>
      `export function ${name}() { throw new Error('kdbxweb asked for Node\\'s crypto.${name}: this browser offers no WebCrypto here.'); }`,
  )
  .join('\n');

/**
 * Gives kdbxweb a browser-safe `crypto` in the page and worker bundles, instead of Vite's empty
 * "externalized for browser compatibility" module (and its warning). Only kdbxweb's import is
 * touched; the prerender (Node) build keeps the real module.
 */
export function kdbxwebBrowserCrypto(): Plugin {
  return {
    name: 'lockit:kdbxweb-browser-crypto',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source !== 'crypto' || importer === undefined || !KDBXWEB.test(importer)) return null;
      if (this.environment.config.consumer !== 'client') return null;
      return STAND_IN;
    },
    load(id) {
      return id === STAND_IN ? STAND_IN_SOURCE : null;
    },
  };
}
