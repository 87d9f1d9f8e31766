/**
 * The contract as browsers load it (the `browser` export condition, which Vite's client
 * build uses). The web app runs under a CSP without 'unsafe-eval'; as it builds an object
 * schema, zod probes `new Function('')` to decide whether to compile a faster parser. The
 * probe's error is caught, but Chromium still reports a CSP violation for it (an issue in
 * DevTools, a failed Lighthouse audit). jitless skips the probe and the compiler; the server
 * keeps them.
 */
import './jitless';

export * from './index';
