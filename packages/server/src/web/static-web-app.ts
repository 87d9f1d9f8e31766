import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  INVITE_QUERY_PARAM,
  pageFileFor,
  PRERENDERED_PAGES,
  type PrerenderedPath,
  type SignupMode,
} from '@lockit/contract/paths';
import { DEFAULT_SITE_SETTINGS, type SiteSettings } from '@lockit/contract/site-settings';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { isApiPath } from '../security/security-headers';
import { MESSAGES } from '../routes/messages';
import { isConfigured, SitePages } from './site-pages';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Serves the built web app: hashed /assets/* cached for a year, everything else (and
 * index.html) revalidated. The build writes a Brotli (.br) and a gzip (.gz) copy beside each
 * text file worth compressing; the one the browser accepts is sent as is, so compression
 * costs no CPU per request (and answers say Vary: Accept-Encoding). The landing routes get
 * their prerendered page (PRERENDERED_PAGES, when the build has it), which paints before any
 * script runs; other GETs outside /api for a path without a file extension get index.html,
 * the empty shell (client-side routes); unknown /api paths and missing files get a JSON 404.
 *
 * Sign-up modes (decision 0044): every page and the shell are sent in the copy the build made
 * for SIGNUP_MODE, which carries the mode, so no page offers a sign-up the server would refuse.
 * Outside open mode the open copies are not served at all (not by their file names either);
 * an older build without the mode's copies gets the plain shell everywhere, which offers no
 * sign-up until the server's public config says the mode.
 *
 * Site settings (decision 0082): with a credit or social links configured, the shell and the
 * pages are sent as SitePages made at start, with the settings written in, and no HTML file is
 * sent by its own name (it would lack them). Scripts and styles are always the build's files.
 */
export async function registerWebApp(
  app: FastifyInstance,
  distDir: string,
  signupMode: SignupMode = 'open',
  site: SiteSettings = DEFAULT_SITE_SETTINGS,
): Promise<void> {
  const shell = existsSync(path.join(distDir, pageFileFor(null, signupMode))) ? pageFileFor(null, signupMode) : 'index.html';
  if (shell === 'index.html' && signupMode !== 'open') {
    app.log.warn(`The web app build has no pages for SIGNUP_MODE=${signupMode} (an older build): rebuild it with npm run build.`);
  }
  const pages = prerenderedPagesIn(distDir, signupMode);
  const sitePages = isConfigured(site) ? await SitePages.load(distDir, [shell, ...pages.values()], site) : null;
  const sendPage = (request: FastifyRequest, reply: FastifyReply, file: string) =>
    sitePages
      ? sitePages.send(request, reply.header('cache-control', 'no-cache'), file)
      : reply.header('cache-control', 'no-cache').sendFile(file);
  await app.register(async (web) => {
    // Static files are public by nature; marked here because every route is private by default.
    web.addHook('onRoute', (route) => {
      route.config = { ...(route.config as object), public: true };
    });
    await web.register(fastifyStatic, {
      root: distDir,
      prefix: '/',
      preCompressed: true,
      // Outside open mode, open mode's copies (the usual names) would offer sign-up. Decided on
      // the address asked for: the pages and shell this file sends itself are always allowed.
      allowedPath: (_pathname, _root, request) => (signupMode === 'open' && sitePages === null) || !isOpenModeCopy(request.url),
      cacheControl: false,
      etag: true,
      lastModified: true,
      setHeaders(reply, filePath) {
        const relative = path.relative(distDir, filePath).split(path.sep);
        reply.header('cache-control', relative[0] === 'assets' ? IMMUTABLE : 'no-cache');
      },
    });
    for (const [route, page] of pages) {
      // A declared path wins over the static files' wildcard; `/` is this page, not index.html.
      web.route({
        method: ['GET', 'HEAD'],
        url: route,
        handler: (request, reply) =>
          // An invitation link's sign-up page shows the form, which the page made for no link
          // does not: the shell, rendered by the app, rather than markup it would not hydrate.
          sendPage(request, reply, opensInvitation(request, route, signupMode) ? shell : page),
      });
    }
    web.setNotFoundHandler((request, reply) => {
      if (wantsAppShell(request)) return sendPage(request, reply, shell);
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

/** The landing routes whose prerendered page, in the mode's copy, this build has; an older build has none. */
function prerenderedPagesIn(distDir: string, mode: SignupMode): ReadonlyMap<PrerenderedPath, string> {
  const routes = Object.keys(PRERENDERED_PAGES) as PrerenderedPath[];
  return new Map(
    routes.map((route) => [route, pageFileFor(route, mode)] as const).filter(([, file]) => existsSync(path.join(distDir, file))),
  );
}

/** A file of the build's HTML asked for by name (its compressed copies too), not through a route. */
function isOpenModeCopy(url: string): boolean {
  const pathname = url.split('?')[0] ?? '';
  const lastSegment = pathname.slice(pathname.lastIndexOf('/') + 1);
  return pathname.startsWith('/index.html') || (pathname.startsWith('/pages/') && lastSegment.includes('.'));
}

function opensInvitation(request: FastifyRequest, route: PrerenderedPath, mode: SignupMode): boolean {
  if (route !== '/signup' || mode !== 'invite') return false;
  const query = request.url.split('?')[1];
  return query !== undefined && new URLSearchParams(query).has(INVITE_QUERY_PARAM);
}

/** Client-side routes have no file extension; a missing /robots.txt or /favicon.ico is a 404. */
function wantsAppShell(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const pathname = request.url.split('?')[0] ?? '';
  const lastSegment = pathname.slice(pathname.lastIndexOf('/') + 1);
  return !isApiPath(pathname) && !pathname.startsWith('/assets/') && !lastSegment.includes('.');
}
