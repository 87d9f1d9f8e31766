import { config } from 'zod';

// See browser.ts. zod reads the setting as each object schema is built, so this module runs
// before any schema module: browser.ts imports it first.
config({ jitless: true });
