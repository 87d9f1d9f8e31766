import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from './free-port';
import { repoRoot } from './repo-paths';

/** A Node process of the repo's (run through tsx, as `npm run serve` runs the server). */
export interface NodeProcess {
  url: string;
  port: number;
  pid: number;
  child: ChildProcess;
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>;
  /** What the process wrote so far, stdout and stderr (the first 2 MB). */
  output(): string;
  /** Sends the signal (default SIGTERM) unless the process is gone, and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface NodeProcessOptions {
  /** Script path relative to the repo root (or absolute). */
  script: string;
  /** Added to a minimal environment (PATH, HOME), so the caller's DATABASE_URL & co never leak in. */
  env?: Record<string, string>;
  /** A GET path; the process is ready once it answers there at all (any HTTP status). */
  readyPath: string;
  /** Every line the process prints on stdout, as it comes. */
  onLine?: (line: string) => void;
  nodeArgs?: string[];
  readyTimeoutMs?: number;
}

const OUTPUT_CAP = 2_000_000;

/**
 * Starts `node --import tsx <script>` (plain `node` for a built `.mjs`) on a free port (PORT,
 * HOST=127.0.0.1) and waits until it answers.
 */
export async function startNodeProcess(options: NodeProcessOptions): Promise<NodeProcess> {
  const port = await freePort();
  const loader = options.script.endsWith('.mjs') ? [] : ['--import', 'tsx'];
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...loader, options.script], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      HOST: '127.0.0.1',
      ...options.env,
      PORT: String(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  let pending = '';
  const keep = (text: string) => {
    if (log.length < OUTPUT_CAP) log += text;
  };
  child.stdout.on('data', (chunk: Buffer) => {
    const text = chunk.toString();
    keep(text);
    if (!options.onLine) return;
    pending += text;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) options.onLine(line);
  });
  child.stderr.on('data', (chunk: Buffer) => keep(chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  await waitUntilAnswering(`${url}${options.readyPath}`, child, () => log, options.readyTimeoutMs ?? 60_000);
  return {
    url,
    port,
    pid: child.pid ?? -1,
    child,
    exited,
    output: () => log,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

async function waitUntilAnswering(url: string, child: ChildProcess, log: () => string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the process exited (${child.exitCode}) before it answered:\n${log()}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`no answer from ${url} within ${timeoutMs / 1000} s:\n${log()}`);
    }
    try {
      await fetch(url);
      return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
