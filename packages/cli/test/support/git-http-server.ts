import { execFileSync, spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

export interface GitHttpServer {
  /** The repository's address: http://127.0.0.1:PORT/NAME.git */
  url: string;
  /** How many requests came with no or the wrong credentials (each answered 401). */
  refusals: number;
  stop(): Promise<void>;
}

/**
 * A real git server over HTTP for the credential helper's tests: git's own `git http-backend`
 * (smart HTTP, as a forge runs it) behind HTTP Basic authentication that takes one user name
 * and password. It serves the bare repository `NAME.git` under `root`, made with one commit.
 */
export async function startGitHttpServer(
  root: string,
  name: string,
  credential: { username: string; password: string },
): Promise<GitHttpServer> {
  const bare = join(root, `${name}.git`);
  const work = join(root, `${name}-work`);
  const git = (args: string[], cwd = root) =>
    execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.test', ...args], { cwd });
  git(['init', '-q', '-b', 'main', work]);
  git(['commit', '-q', '--allow-empty', '-m', 'first'], work);
  git(['clone', '-q', '--bare', work, bare]);
  git(['config', 'http.receivepack', 'true'], bare);

  const expected = `Basic ${Buffer.from(`${credential.username}:${credential.password}`).toString('base64')}`;
  const state = { refusals: 0 };
  const server: Server = createServer((request, response) => {
    if (request.headers.authorization !== expected) {
      state.refusals++;
      response.writeHead(401, { 'WWW-Authenticate': 'Basic realm="test forge"' }).end();
      request.resume();
      return;
    }
    const url = new URL(request.url ?? '/', 'http://localhost');
    const backend = spawn('git', ['http-backend'], {
      env: {
        ...process.env,
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        REMOTE_USER: credential.username,
        REQUEST_METHOD: request.method ?? 'GET',
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        CONTENT_TYPE: request.headers['content-type'] ?? '',
        ...(request.headers['content-encoding'] ? { HTTP_CONTENT_ENCODING: request.headers['content-encoding'] } : {}),
      },
    });
    request.pipe(backend.stdin);
    respondFromCgi(backend.stdout, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/${name}.git`,
    get refusals() {
      return state.refusals;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A CGI answer (headers, a blank line, the body) written as the HTTP response. */
function respondFromCgi(output: NodeJS.ReadableStream, response: import('node:http').ServerResponse): void {
  let head = Buffer.alloc(0);
  let started = false;
  output.on('data', (chunk: Buffer) => {
    if (started) return void response.write(chunk);
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf('\r\n\r\n');
    if (end < 0) return;
    started = true;
    let status = 200;
    for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
      const colon = line.indexOf(':');
      const field = line.slice(0, colon).trim();
      const value = line.slice(colon + 1).trim();
      if (field.toLowerCase() === 'status') status = Number.parseInt(value, 10);
      else response.setHeader(field, value);
    }
    response.writeHead(status);
    response.write(head.subarray(end + 4));
  });
  output.on('end', () => response.end());
}
