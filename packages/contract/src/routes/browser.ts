/**
 * The route table as browsers load it (the `browser` export condition): zod set to jitless
 * before any schema module runs, as in ../browser.ts, so a page under a CSP without
 * 'unsafe-eval' that loads the route table first reports no violation.
 */
import '../jitless';

export * from './index';
