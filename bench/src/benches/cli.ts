import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  addEntries,
  createServerDatabase,
  createVerifiedAccount,
  LogCodeInbox,
  repoRoot,
  startServerProcess,
} from '@lockit/test-support';
import { bitwardenCli, BITWARDEN_CLI_VERSION } from '../support/bitwarden-cli';
import { cliLargeVault } from './cli-large-vault';
import { describeMachine, median, percentile, printHeading, printTable } from '../support/report';

const RUNS = Number(process.env.BENCH_CLI_RUNS ?? 30);
const ITEMS = 200;
/** The aim of decision 0068: a command with the agent running within 1.5 times bare Node's start. */
const AIM_RATIO = 1.5;
const RUN_CASE = 'lockit run -- node -e 0 (TOKEN=lockit://…)';

/**
 * The CPU time (ms) of this process's waited-for children so far, from /proc (cutime + cstime,
 * in clock ticks of 10 ms): spawnSync waits for each child, so the difference across one call
 * is that child's CPU, which tells a program working from one waiting.
 */
function childrenCpuMs(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  // After "pid (comm) ", cutime and cstime are the 14th and 15th fields.
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

/**
 * `lockit get ITEM password` with the agent running, beside `node -e 0` (the ceiling: Node
 * starting and doing nothing), `lockit --version` (the thin client without the agent) and
 * Bitwarden's command line (`bw --version`, `bw status`: the nearest thing another manager's CLI
 * does without a network), runs interleaved so the machine's load falls on each alike. The get
 * includes the agent's round trip to the server (the list fetched and checked, one entry's
 * secrets opened) on a vault of 200 entries. `npm run bench -- cli`.
 */
export async function cliBench(): Promise<void> {
  printHeading(`Command line: lockit get with the agent running, beside bare node (aim ${AIM_RATIO}x)`);
  const db = await createServerDatabase('sqlite', 'lockit-bench-cli');
  const inbox = new LogCodeInbox();
  const server = await startServerProcess({ env: db.env, logLevel: 'info', onLine: inbox.onLine });
  const home = await mkdtemp(join(tmpdir(), 'lockit-bench-cli-'));
  const env = { ...process.env, LOCKIT_RUNTIME_DIR: join(home, 'run'), LOCKIT_STATE_DIR: join(home, 'state') };
  const lockit = join(repoRoot, 'packages/cli/bin/lockit.js');
  try {
    const holder = await createVerifiedAccount(server.url, inbox);
    await addEntries(holder.client, holder.vaultKey, {
      count: ITEMS,
      make: (n) => ({ serviceName: `Service ${n}`, username: `user${n}`, password: `password-${n}` }),
    });
    const login = spawnSync(
      process.execPath,
      [lockit, 'login', '--server', server.url, holder.account.username, '--password-stdin'],
      {
        env,
        input: `${holder.account.password}\n`,
        encoding: 'utf8',
      },
    );
    if (login.status !== 0) throw new Error(`lockit login failed: ${login.stderr}`);

    const cases: Record<string, string[]> = {
      'node -e 0 (ceiling)': ['-e', '0'],
      'lockit --version': [lockit, '--version'],
      'lockit get "Service 42" password': [lockit, 'get', 'Service 42', 'password'],
      // `lockit run`'s cost over the command it runs: one reference resolved, the child's output masked.
      [RUN_CASE]: [lockit, 'run', '--', process.execPath, '-e', '0'],
    };
    const bw = bitwardenCli();
    if (bw) {
      cases[`bw --version (@bitwarden/cli ${BITWARDEN_CLI_VERSION})`] = [bw, '--version'];
      cases['bw status (signed out)'] = [bw, 'status'];
    }
    // bw keeps its state in a folder of the run's own.
    const bwEnv = { ...env, BITWARDENCLI_APPDATA_DIR: join(home, 'bw') };
    const times: Record<string, number[]> = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
    const cpu: Record<string, number[]> = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
    for (let run = 0; run < RUNS; run++) {
      for (const [name, args] of Object.entries(cases)) {
        const cpuBefore = childrenCpuMs();
        const started = process.hrtime.bigint();
        const caseEnv = name.startsWith('bw')
          ? bwEnv
          : name === RUN_CASE
            ? { ...env, TOKEN: 'lockit://Service 42/password' }
            : env;
        const result = spawnSync(process.execPath, args, { env: caseEnv, encoding: 'utf8' });
        times[name]!.push(Number(process.hrtime.bigint() - started) / 1e6);
        cpu[name]!.push(childrenCpuMs() - cpuBefore);
        if (result.status !== 0) throw new Error(`${name} failed: ${result.stderr}`);
        if (name.startsWith('lockit get') && result.stdout !== 'password-42\n')
          throw new Error(`lockit get answered ${result.stdout}`);
      }
    }
    const bare = median(times['node -e 0 (ceiling)']!);
    printTable(
      `${RUNS} runs each, interleaved; ${describeMachine()}`,
      ['command', 'median ms', 'p95 ms', 'x bare node (median)', 'CPU ms (median)'],
      Object.entries(times).map(([name, values]) => [
        name,
        median(values),
        percentile(values, 95),
        Number((median(values) / bare).toFixed(2)),
        median(cpu[name]!),
      ]),
    );
    const bwStatus = times['bw status (signed out)'];
    console.log(
      `lockit run overhead over the bare child: ${(median(times[RUN_CASE]!) - bare).toFixed(1)} ms (median minus median)` +
        (bwStatus
          ? `; bw status / lockit get: ${(median(bwStatus) / median(times['lockit get "Service 42" password']!)).toFixed(1)}x (aim 15x)`
          : ''),
    );
    spawnSync(process.execPath, [lockit, 'logout'], { env });
    await cliLargeVault(lockit, server.url, inbox, env);
  } finally {
    await server.stop();
    await db.drop();
    await rm(home, { recursive: true, force: true });
  }
}
