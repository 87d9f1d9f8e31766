import { existsSync } from 'node:fs';
import path from 'node:path';
import { PRERENDERED_PAGES } from '@lockit/contract/paths';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { isApiPath } from '../security/security-headers';
import { MESSAGES } from '../routes/messages';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Serves the built web app: hashed /assets/* cached for a year, everything else (and
 * index.html) revalidated. The build writes a Brotli (.br) and a gzip (.gz) copy beside each
 * text file worth compressing; the one the browser accepts is sent as is, so compression
 * costs no CPU per request (and answers say Vary: Accept-Encoding). The landing routes get
 * their prerendered page (PRERENDERED_PAGES, when the build has it), which paints before any
 * script runs; other GETs outside /api for a path without a file extension get index.html,
 * the empty shell (client-side routes); unknown /api paths and missing files get a JSON 404.
 */
export async function registerWebApp(app: FastifyInstance, distDir: string): Promise<void> {
  await app.register(async (web) => {
    // Static files are public by nature; marked here because every route is private by default.
    web.addHook('onRoute', (route) => {
      route.config = { ...(route.config as object), public: true };
    });
    await web.register(fastifyStatic, {
      root: distDir,
      prefix: '/',
      preCompressed: true,
      cacheControl: false,
      etag: true,
      lastModified: true,
      setHeaders(reply, filePath) {
        const relative = path.relative(distDir, filePath).split(path.sep);
        reply.header('cache-control', relative[0] === 'assets' ? IMMUTABLE : 'no-cache');
      },
    });
    const pages = prerenderedPagesIn(distDir);
    for (const [route, page] of pages) {
      // A declared path wins over the static files' wildcard; `/` is this page, not index.html.
      web.route({
        method: ['GET', 'HEAD'],
        url: route,
        handler: (_request, reply) => reply.header('cache-control', 'no-cache').sendFile(page),
      });
    }
    web.setNotFoundHandler((request, reply) => {
      if (wantsAppShell(request)) return reply.header('cache-control', 'no-cache').sendFile('index.html');
      return notFound(request, reply);
    });
  });
}

/** The 404 answer when no web app is served. */
export function registerApiOnlyNotFound(app: FastifyInstance): void {
  app.setNotFoundHandler(notFound);
}

function notFound(_request: FastifyRequest, reply: FastifyReply) {
  return reply.code(404).send({ message: MESSAGES.notFound });
}

/** The landing routes whose prerendered page this build has; an older build has none. */
function prerenderedPagesIn(distDir: string): ReadonlyMap<string, string> {
  return new Map(Object.entries(PRERENDERED_PAGES).filter(([, file]) => existsSync(path.join(distDir, file))));
}

/** Client-side routes have no file extension; a missing /robots.txt or /favicon.ico is a 404. */
function wantsAppShell(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const pathname = request.url.split('?')[0] ?? '';
  const lastSegment = pathname.slice(pathname.lastIndexOf('/') + 1);
  return !isApiPath(pathname) && !pathname.startsWith('/assets/') && !lastSegment.includes('.');
}
