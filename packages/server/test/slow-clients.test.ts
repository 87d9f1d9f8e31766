import { connect, type AddressInfo, type Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@lockit/contract';
import { buildApp } from '../src/app';
import { TOO_MANY_CONNECTIONS } from '../src/http/connection-limits';
import { recordFigures } from './helpers/figures';
import { ms } from './helpers/latency';
import { testConfig, useTestApp } from './helpers/test-app';

/**
 * Clients that hold connections open: a body trickled a byte at a time (never timed out
 * before: 750 of 750 still open after 6 minutes), and one address opening connection after
 * connection (4,200 of them made every new connection fail). Real sockets against the
 * listening server, with the request timeout shortened through the config.
 */
const REQUEST_TIMEOUT_MS = 2_000;
const CAP = 64;
const TRICKLERS = 40;

const h = useTestApp({
  config: {
    loadLimits: { requestTimeoutMs: REQUEST_TIMEOUT_MS, maxConnectionsPerIp: CAP, hashingConcurrency: 1, hashingQueueMax: 100 },
  },
});
let port: number;

beforeAll(async () => {
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  port = (h.app.server.address() as AddressInfo).port;
});

interface Watched {
  socket: Socket;
  answer: () => string;
  closedAt: () => number | undefined;
}

function open(toPort: number, localAddress = '127.0.0.1'): Promise<Watched> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: toPort, localAddress });
    let answer = '';
    let closedAt: number | undefined;
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('error', () => undefined); // a reset is a close here
    socket.on('close', () => (closedAt = performance.now()));
    socket.once('connect', () => resolve({ socket, answer: () => answer, closedAt: () => closedAt }));
    socket.once('error', reject);
  });
}

/** Starts a sign-in whose body never finishes arriving: one byte every 200 ms. */
function trickle(watched: Watched): () => void {
  watched.socket.write(
    `POST ${apiPaths.login} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n` +
      `x-lockit-client: web\r\nContent-Length: 10000\r\n\r\n{`,
  );
  const timer = setInterval(() => {
    if (!watched.socket.destroyed) watched.socket.write(' ');
  }, 200);
  return () => clearInterval(timer);
}

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

async function serverConnections(app: FastifyInstance): Promise<number> {
  return new Promise((resolve, reject) => app.server.getConnections((error, count) => (error ? reject(error) : resolve(count))));
}

async function waitFor(check: () => Promise<boolean> | boolean, timeoutMs: number): Promise<void> {
  const until = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > until) throw new Error('timed out waiting');
    await sleep(20);
  }
}

describe('slow bodies', () => {
  let unlimited: FastifyInstance;
  afterAll(async () => unlimited?.close());

  it(`${TRICKLERS} connections trickling a body are answered 408 and closed within the request timeout; without one they all stay open`, async () => {
    // Before: the same app with Node's request timeout out of reach (Fastify's default was none at all).
    unlimited = await buildApp(
      { ...testConfig(h.config.database, h.config.smtpUrl), loadLimits: { ...h.config.loadLimits, requestTimeoutMs: 3_600_000 } },
      { db: h.db },
    );
    await unlimited.listen({ port: 0, host: '127.0.0.1' });
    const unlimitedPort = (unlimited.server.address() as AddressInfo).port;

    const started = performance.now();
    const limited = await Promise.all(Array.from({ length: TRICKLERS }, () => open(port)));
    const old = await Promise.all(Array.from({ length: TRICKLERS }, () => open(unlimitedPort, '127.0.0.3')));
    const stops = [...limited, ...old].map(trickle);
    await waitFor(() => limited.every((watched) => watched.closedAt() !== undefined), REQUEST_TIMEOUT_MS * 3);
    await sleep(500);
    stops.forEach((stop) => stop());

    const closeTimes = limited.map((watched) => watched.closedAt()! - started);
    const stillOpenWithoutTimeout = old.filter((watched) => watched.closedAt() === undefined).length;
    recordFigures('slow-bodies', {
      tricklers: TRICKLERS,
      requestTimeoutMs: REQUEST_TIMEOUT_MS,
      after: {
        closed: closeTimes.length,
        slowestCloseMs: ms(Math.max(...closeTimes)),
        fastestCloseMs: ms(Math.min(...closeTimes)),
      },
      before: { stillOpenAfterMs: ms(performance.now() - started), stillOpen: stillOpenWithoutTimeout },
    });
    for (const watched of limited) {
      expect(watched.answer()).toMatch(/^HTTP\/1\.1 408 /);
      expect(watched.answer()).toContain('{"message":"The request took too long to arrive."}');
    }
    expect(Math.min(...closeTimes)).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 100);
    expect(Math.max(...closeTimes)).toBeLessThan(REQUEST_TIMEOUT_MS * 2);
    expect(stillOpenWithoutTimeout).toBe(TRICKLERS);
    old.forEach((watched) => watched.socket.destroy());
  });
});

describe('connections per address', () => {
  it(`the ${CAP + 1}th open connection of one address is answered 503 and closed; another address still gets in`, async () => {
    await waitFor(async () => (await serverConnections(h.app)) === 0, 5_000);
    const held = await Promise.all(Array.from({ length: CAP }, () => open(port)));
    await waitFor(async () => (await serverConnections(h.app)) === CAP, 2_000);

    const extra = await open(port);
    await waitFor(() => extra.closedAt() !== undefined, 2_000);
    expect(extra.answer()).toMatch(/^HTTP\/1\.1 503 /);
    expect(extra.answer()).toContain(JSON.stringify({ message: TOO_MANY_CONNECTIONS }));

    // A second address is not held back by the first one's connections.
    const other = await open(port, '127.0.0.2');
    other.socket.write(`GET ${apiPaths.publicConfig} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    await waitFor(() => other.answer().includes('\r\n\r\n'), 2_000);
    expect(other.answer()).toMatch(/^HTTP\/1\.1 200 /);

    // One of the held connections still works, and closing some makes room again.
    held[0]!.socket.write(`GET ${apiPaths.publicConfig} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    await waitFor(() => held[0]!.answer().includes('\r\n\r\n'), 2_000);
    expect(held[0]!.answer()).toMatch(/^HTTP\/1\.1 200 /);
    held.slice(0, 4).forEach((watched) => watched.socket.destroy());
    await waitFor(async () => (await serverConnections(h.app)) <= CAP - 4 + 1, 2_000);
    const again = await open(port);
    again.socket.write(`GET ${apiPaths.publicConfig} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    await waitFor(() => again.answer().includes('\r\n\r\n'), 2_000);
    expect(again.answer()).toMatch(/^HTTP\/1\.1 200 /);

    recordFigures('connections-per-address', { cap: CAP, held: CAP, refused: 1, otherAddressAnswered: 200 });
    [...held, other, again].forEach((watched) => watched.socket.destroy());
  });

  it('behind a proxy (TRUST_PROXY) the cap is off: every client has the proxy’s address', async () => {
    const behindProxy = await buildApp(
      {
        ...testConfig(h.config.database, h.config.smtpUrl),
        trustProxy: 1,
        loadLimits: { ...h.config.loadLimits, maxConnectionsPerIp: 2 },
      },
      { db: h.db },
    );
    try {
      await behindProxy.listen({ port: 0, host: '127.0.0.1' });
      const proxyPort = (behindProxy.server.address() as AddressInfo).port;
      const sockets = await Promise.all(Array.from({ length: 4 }, () => open(proxyPort)));
      for (const watched of sockets) watched.socket.write(`GET ${apiPaths.publicConfig} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
      await waitFor(() => sockets.every((watched) => watched.answer().includes('\r\n\r\n')), 2_000);
      for (const watched of sockets) expect(watched.answer()).toMatch(/^HTTP\/1\.1 200 /);
      sockets.forEach((watched) => watched.socket.destroy());
    } finally {
      await behindProxy.close();
    }
  });
});
