import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the browser sent through the proxy, kept so tests can prove what left it. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** Exactly what the browser sent (before any request rewrite). */
  body: string;
  /** What the real server answered (before any response rewrite), once it has. */
  answer?: { status: number; body: string; headers: IncomingHttpHeaders };
}

/** A JSON response the proxy is about to hand to the browser. */
export interface InterceptedResponse {
  method: string;
  path: string;
  /** A rule may set another status (e.g. a hostile server answering 200 where the real one refused). */
  status: number;
  /** The parsed JSON body; a rule may change it in place or return a new one. */
  body: unknown;
  /** The answer's headers; a rule may change them in place (e.g. serve an older vault state). */
  headers: IncomingHttpHeaders;
  /** The request body the browser sent, parsed when it was JSON. */
  requestBody: unknown;
}

/** A rewrite: return a replacement body (or `undefined` to keep the body as possibly mutated). */
export type ResponseRule = {
  method?: string;
  path: string | RegExp;
  /** Apply only this many times (default: every time). */
  times?: number;
  rewrite: (response: InterceptedResponse) => unknown;
};

/**
 * A rewrite of a raw (not JSON) answer's bytes, e.g. an attachment's sealed content served
 * reordered, cut short or swapped for another file's.
 */
export type BytesRule = {
  method?: string;
  path: string | RegExp;
  times?: number;
  rewrite: (body: Buffer) => Buffer | Promise<Buffer>;
};

/**
 * A rewrite of the JSON body the browser sent, before it goes on to the real server (the
 * browser never learns of it). Models a server that accepts what a real one would refuse.
 */
export type RequestRule = {
  method?: string;
  path: string | RegExp;
  times?: number;
  rewrite: (body: unknown) => unknown;
};

/**
 * A hostile server for tests: it stands between the real browser and the real Lockit server,
 * forwards every request, records what the browser sent and what the real server answered,
 * and rewrites chosen JSON requests (before they reach the server) and responses (before
 * they reach the browser). The browser talks only to the proxy, so to the app it *is* the
 * server.
 */
export async function startTamperingProxy(targetUrl: string, options: { conditionalRequests?: boolean } = {}) {
  const target = new URL(targetUrl);
  const recorded: RecordedRequest[] = [];
  let rules: Array<ResponseRule & { used: number }> = [];
  let requestRules: Array<RequestRule & { used: number }> = [];
  let bytesRules: Array<BytesRule & { used: number }> = [];

  const server: Server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const sentBody = Buffer.concat(chunks);
      const method = incoming.method ?? 'GET';
      const path = incoming.url ?? '/';
      const record: RecordedRequest = { method, path, headers: incoming.headers, body: sentBody.toString('utf8') };
      recorded.push(record);

      const headers = { ...incoming.headers, host: target.host };
      // The app's Origin is the proxy's; the real server must see its own to accept writes.
      if (headers.origin) headers.origin = target.origin;
      delete headers['accept-encoding'];
      // Always a whole answer, so each can be recorded and rewritten: a 304 would make the
      // browser show its cached copy, which may be an earlier test's lie. A test of a client's
      // own conditional requests asks for them to pass (`conditionalRequests`).
      if (options.conditionalRequests !== true) delete headers['if-none-match'];

      let requestBody = sentBody;
      const requestRule = findRule(requestRules, method, path);
      const sentJson = parseJson(record.body);
      if (requestRule && sentJson !== undefined) {
        requestBody = Buffer.from(JSON.stringify(requestRule.rewrite(sentJson)));
        headers['content-length'] = String(requestBody.length);
        requestRule.used++;
      }

      const upstream = httpRequest({ hostname: target.hostname, port: target.port, method, path, headers }, (answer) => {
        const answerChunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => answerChunks.push(chunk));
        answer.on('end', async () => {
          let body: Buffer = Buffer.concat(answerChunks);
          let status = answer.statusCode ?? 502;
          record.answer = { status, body: body.toString('utf8'), headers: answer.headers };
          let responseHeaders: IncomingHttpHeaders = { ...answer.headers };
          const rule = findRule(rules, method, path);
          const isJson = String(answer.headers['content-type'] ?? '').includes('application/json');
          if (rule && isJson) {
            const intercepted: InterceptedResponse = {
              method,
              path,
              status,
              body: JSON.parse(body.toString('utf8')) as unknown,
              headers: responseHeaders,
              requestBody: sentJson,
            };
            const replaced = rule.rewrite(intercepted);
            body = Buffer.from(JSON.stringify(replaced === undefined ? intercepted.body : replaced));
            status = intercepted.status;
            responseHeaders = intercepted.headers;
            rule.used++;
          }
          const bytesRule = isJson ? undefined : findRule(bytesRules, method, path);
          if (bytesRule) {
            body = await bytesRule.rewrite(body);
            bytesRule.used++;
          }
          responseHeaders['content-length'] = String(body.length);
          delete responseHeaders['transfer-encoding'];
          outgoing.writeHead(status, responseHeaders);
          outgoing.end(body);
        });
      });
      upstream.on('error', () => {
        outgoing.writeHead(502, { 'content-type': 'application/json' });
        outgoing.end(JSON.stringify({ message: 'proxy: upstream failed' }));
      });
      upstream.end(requestBody);
    });
  });

  function findRule<T extends { method?: string; path: string | RegExp; times?: number; used: number }>(
    list: T[],
    method: string,
    path: string,
  ): T | undefined {
    const pathname = path.split('?')[0] ?? path;
    return list.find(
      (rule) =>
        (rule.times === undefined || rule.used < rule.times) &&
        (!rule.method || rule.method === method) &&
        (typeof rule.path === 'string' ? rule.path === pathname : rule.path.test(pathname)),
    );
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    recorded,
    /** Adds a response rewrite; the newest rule that matches wins over older ones. */
    rewrite(rule: ResponseRule) {
      rules = [{ ...rule, used: 0 }, ...rules];
    },
    /** Adds a request rewrite; the newest rule that matches wins over older ones. */
    rewriteRequest(rule: RequestRule) {
      requestRules = [{ ...rule, used: 0 }, ...requestRules];
    },
    /** Adds a rewrite of raw answers' bytes; the newest rule that matches wins over older ones. */
    rewriteBytes(rule: BytesRule) {
      bytesRules = [{ ...rule, used: 0 }, ...bytesRules];
    },
    clearRules() {
      rules = [];
      requestRules = [];
      bytesRules = [];
    },
    /** Requests whose body contains any of the given texts. */
    requestsContaining(...needles: string[]) {
      return recorded.filter((r) => needles.some((needle) => needle && r.body.includes(needle)));
    },
    /** The parsed body the real server last gave for `method path` (before any rewrite). */
    lastAnswer(method: string, path: string): unknown {
      const hit = recorded.findLast((r) => r.method === method && r.path === path && r.answer);
      return hit?.answer ? parseJson(hit.answer.body) : undefined;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
export type TamperingProxy = Awaited<ReturnType<typeof startTamperingProxy>>;

function parseJson(text: string): unknown {
  try {
    return text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    return undefined;
  }
}
