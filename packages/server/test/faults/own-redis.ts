import { spawn } from 'node:child_process';
import { freePort } from '@lockit/test-support';

/** A redis-server of the test's own, on a free port, with no persistence: tests freeze and kill it. */
export interface OwnRedis {
  url: string;
  freeze(): void;
  thaw(): void;
  kill(): Promise<void>;
}

/** `port`: start again where a killed one listened (clients reconnect to the same URL). */
export async function startOwnRedis(port?: number): Promise<OwnRedis> {
  port ??= await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${output}`)), 10_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}):\n${output}`)));
  });
  const signal = (name: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(name);
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    freeze: () => signal('SIGSTOP'),
    thaw: () => signal('SIGCONT'),
    async kill() {
      signal('SIGKILL');
      await exited;
    },
  };
}
