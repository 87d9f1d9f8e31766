import type { FastifyInstance } from 'fastify';

/**
 * Fastify's JSON parser (with its prototype-poisoning protection), except that an empty
 * body is no body: clients often send Content-Type: application/json on bodiless POSTs
 * (logout, refresh-token, verify). JSON is the only body accepted: Fastify's default
 * text/plain parser is removed, so a body a cross-site form can send (text/plain,
 * urlencoded, multipart) is refused with 415 on every route, bodiless ones included.
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    parseJson(request, text, done);
  });
}
