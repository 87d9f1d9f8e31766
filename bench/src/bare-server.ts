import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

/**
 * The ceiling of the API bench: the same framework, the same bytes as the vault list, from
 * memory, without auth, database, hooks or serialization. Started as its own process, like
 * the real server.
 */
const body = readFileSync(process.env.BARE_BODY_FILE ?? '');
const app = Fastify({ logger: false });
app.get('/bare', (_request, reply) => {
  reply.type('application/json; charset=utf-8').send(body);
});
await app.listen({ port: Number(process.env.PORT), host: process.env.HOST ?? '127.0.0.1' });
