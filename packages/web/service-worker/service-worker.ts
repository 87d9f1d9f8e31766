/// <reference lib="webworker" />
import { PRERENDERED_PAGES } from '@lockit/contract/paths';
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, precacheAndRoute, type PrecacheEntry } from 'workbox-precaching';
import { pageCache } from 'workbox-recipes';
import { setCatchHandler } from 'workbox-routing';

/*
 * The installed app's service worker: it serves the app shell so that Lockit opens with the
 * network off or the server down. It never touches /api: the vault's data is not the shell's
 * business, and nothing decrypted ever reaches a cache.
 *
 * - The build's files (hashed scripts and styles, icons, the manifest) are precached at install,
 *   the list written into this file by the build (tools/service-worker-build.ts).
 * - Pages are network-first with a 2 s timeout, then the copy the server last sent. The HTML is
 *   not precached from the build's files because the server sends the copy of its sign-up mode;
 *   the landing pages and the app's shell are fetched from the server at install instead.
 * - A new version waits until no tab runs the old one (no skipWaiting): an open tab keeps the
 *   scripts its page was built with, and a lazy chunk it loads later is still in the old cache.
 *   The first one takes the open tabs at once (clientsClaim), so the page that installed it
 *   keeps working if the network goes next.
 */

declare const LOCKIT_PRECACHE: PrecacheEntry[];

/** Any client-side route gets the app's shell from the server; /vault is the one the app opens at. */
const SHELL = '/vault';
const PAGES = 'lockit-pages';

/** The server not answering within this is the same as no network (what Unlock offline waits). */
const PAGE_TIMEOUT_SECONDS = 2;

clientsClaim();
precacheAndRoute(LOCKIT_PRECACHE);
cleanupOutdatedCaches();
pageCache({
  cacheName: PAGES,
  networkTimeoutSeconds: PAGE_TIMEOUT_SECONDS,
  warmCache: [...Object.keys(PRERENDERED_PAGES), SHELL],
});

// A page this device never opened, offline: the shell, whose router draws any route.
setCatchHandler(async ({ request }) => {
  if (request.mode !== 'navigate') return Response.error();
  const shell = await caches.match(SHELL, { cacheName: PAGES });
  return shell ?? Response.error();
});
