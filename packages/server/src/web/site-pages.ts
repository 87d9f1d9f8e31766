import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { DEFAULT_SITE_SETTINGS, withSiteSettings, type SiteSettings } from '@lockit/contract/site-settings';
import type { FastifyReply, FastifyRequest } from 'fastify';

interface SitePage {
  raw: Buffer;
  br: Buffer;
  gzip: Buffer;
  etag: string;
}

/** True when the operator set a credit or social links (LOCKIT_AUTHOR_*, LOCKIT_SOCIAL_LINKS). */
export function isConfigured(site: SiteSettings): boolean {
  return JSON.stringify(site) !== JSON.stringify(DEFAULT_SITE_SETTINGS);
}

/**
 * The built HTML pages with the server's site settings written in (decision 0082): the meta
 * element the app reads before its first render, and the credit and social links in the
 * prerendered markup (withSiteSettings). Made once at start, each with its Brotli and gzip copy,
 * so a request costs no more than a file on disk; the scripts stay the build's, byte for byte.
 */
export class SitePages {
  readonly #pages = new Map<string, SitePage>();

  static async load(distDir: string, files: Iterable<string>, site: SiteSettings): Promise<SitePages> {
    const pages = new SitePages();
    for (const file of new Set(files)) {
      const raw = Buffer.from(withSiteSettings(await readFile(path.join(distDir, file), 'utf8'), site));
      pages.#pages.set(file, {
        raw,
        br: brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        gzip: gzipSync(raw, { level: 9 }),
        etag: `"${createHash('sha256').update(raw).digest('base64url').slice(0, 27)}"`,
      });
    }
    return pages;
  }

  /** Sends `file` (a path under the build, e.g. pages/home.html) in the encoding the browser accepts. */
  send(request: FastifyRequest, reply: FastifyReply, file: string): FastifyReply {
    const page = this.#pages.get(file);
    if (!page) throw new Error(`No page ${file} was prepared.`);
    reply.header('content-type', 'text/html; charset=UTF-8').header('vary', 'accept-encoding').header('etag', page.etag);
    if (request.headers['if-none-match'] === page.etag) return reply.code(304).send();
    const encoding = acceptedEncoding(request.headers['accept-encoding']);
    if (encoding !== null) reply.header('content-encoding', encoding);
    return reply.send(encoding === 'br' ? page.br : encoding === 'gzip' ? page.gzip : page.raw);
  }
}

/** Brotli when the browser takes it, else gzip, else none (a q=0 refuses one). */
export function acceptedEncoding(header: string | string[] | undefined): 'br' | 'gzip' | null {
  const accepted = new Set<string>();
  for (const part of (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',')) {
    const [name = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const q = params.find((param) => param.startsWith('q='));
    if (name !== '' && (q === undefined || Number(q.slice(2)) > 0)) accepted.add(name);
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return null;
}
