import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { addEntries, createVerifiedAccount, type LogCodeInbox } from '@lockit/test-support';
import { describeMachine, median, printTable } from '../support/report';

const LARGE = Number(process.env.BENCH_CLI_LARGE_ITEMS ?? 10_000);
const UNLOCKS = Number(process.env.BENCH_CLI_LARGE_RUNS ?? 3);

/** A process's resident memory (VmRSS) and its peak (VmHWM) in MiB, from /proc. */
function memoryMiB(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: Math.round(kib('VmRSS') / 1024), peak: Math.round(kib('VmHWM') / 1024) };
}

/**
 * The agent with a large vault: the first `lockit get` after `lockit unlock` (the agent reads the
 * whole vault, checks it and opens the one entry), then the next get (the vault held), and the
 * agent's memory with the vault open, from /proc. A home of its own, signed in to a new account
 * of LARGE entries on `serverUrl`.
 */
export async function cliLargeVault(
  lockit: string,
  serverUrl: string,
  inbox: LogCodeInbox,
  env: NodeJS.ProcessEnv,
): Promise<void> {
  const holder = await createVerifiedAccount(serverUrl, inbox);
  await addEntries(holder.client, holder.vaultKey, {
    count: LARGE,
    make: (n) => ({ serviceName: `Service ${n}`, username: `user${n}`, password: `password-${n}` }),
  });
  const run = (args: string[], input?: string) => {
    const started = process.hrtime.bigint();
    const result = spawnSync(process.execPath, [lockit, ...args], { env, input, encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`lockit ${args[0]} failed: ${result.stderr}`);
    return { ms: Number(process.hrtime.bigint() - started) / 1e6, stdout: result.stdout };
  };
  run(['login', '--server', serverUrl, holder.account.username, '--password-stdin'], `${holder.account.password}\n`);
  const first: number[] = [];
  const next: number[] = [];
  for (let i = 0; i < UNLOCKS; i++) {
    run(['lock']);
    run(['unlock', '--password-stdin'], `${holder.account.password}\n`);
    const got = run(['get', `Service ${LARGE - 7}`, 'password']);
    if (got.stdout !== `password-${LARGE - 7}\n`) throw new Error(`lockit get answered ${got.stdout}`);
    first.push(got.ms);
    next.push(run(['get', 'Service 42', 'password']).ms);
  }
  const memory = memoryMiB(Number(readFileSync(join(env['LOCKIT_RUNTIME_DIR']!, 'agent.pid'), 'utf8')));
  printTable(
    `${LARGE.toLocaleString('en')} entries, ${UNLOCKS} unlocks; ${describeMachine()}`,
    ['figure', 'value'],
    [
      ['first lockit get after unlock, median (ms)', median(first)],
      ['first lockit get after unlock, worst (ms)', Math.max(...first)],
      ['the next lockit get, median (ms)', median(next)],
      ['agent memory with the vault open, VmRSS (MiB)', memory.rss],
      ['agent memory, peak VmHWM (MiB)', memory.peak],
    ],
  );
  run(['logout']);
}
