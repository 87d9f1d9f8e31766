import { join, resolve } from 'node:path';

/** The repository's root folder (this package lives at packages/test-support). */
export const repoRoot = resolve(import.meta.dirname, '../../..');

/** The built web app the server serves; LOCKIT_WEB_DIST points elsewhere (e.g. another build). */
export const webDist = process.env.LOCKIT_WEB_DIST ?? join(repoRoot, 'packages/web/dist');
