import { execFile } from 'node:child_process';
import { readFile, readlink } from 'node:fs/promises';
import type { Socket } from 'node:net';

/** The process at the other end of an SSH agent connection, as the system tells it. */
export interface PeerProcess {
  pid: number;
  /** Its command name (`ssh`, `ssh-keygen`, `git`…), as /proc's comm gives it. */
  name: string;
  /** The command name of its parent (the `git` that ran `ssh`, say), when known. */
  parent?: string;
}

/**
 * Which process opened a connection to a Unix socket served here.
 *
 * Written by hand because Node exposes no SO_PEERCRED and no kept npm package reads a Unix
 * socket's peer without a native addon: the accepted socket's inode comes from /proc/self/fd,
 * and iproute2's `ss -xpn` (which asks the kernel's sock_diag for each socket's peer inode and
 * maps sockets to processes through /proc) names the process holding the other end. Linux
 * only; anywhere else, or when `ss` is missing or slow, the answer is null and the caller logs
 * no process. The result names a process, it does not authenticate one: the socket's mode and
 * folder remain the only door.
 */
export async function peerProcess(socket: Socket): Promise<PeerProcess | null> {
  if (process.platform !== 'linux') return null;
  const fd = (socket as unknown as { _handle?: { fd?: number } })._handle?.fd;
  if (typeof fd !== 'number' || fd < 0) return null;
  try {
    const inode = /^socket:\[(\d+)\]$/.exec(await readlink(`/proc/self/fd/${fd}`))?.[1];
    if (!inode) return null;
    const table = await run('ss', ['-xpnH']);
    const found = peerInTable(table, inode);
    if (!found) return null;
    const parent = await parentName(found.pid);
    return parent ? { ...found, parent } : found;
  } catch {
    return null;
  }
}

/**
 * The process of the socket whose peer is `inode`, from `ss -xpnH`'s rows: Netid, State,
 * Recv-Q, Send-Q, local address, local inode, peer address, peer inode, then
 * `users:(("name",pid=N,fd=M),…)`.
 */
export function peerInTable(table: string, inode: string): { pid: number; name: string } | null {
  for (const row of table.split('\n')) {
    const columns = row.trim().split(/\s+/);
    if (columns[7] !== inode) continue;
    const user = /users:\(\("((?:[^"\\]|\\.)*)",pid=(\d+),/.exec(row);
    if (user) return { name: user[1]!, pid: Number(user[2]) };
  }
  return null;
}

async function parentName(pid: number): Promise<string | undefined> {
  try {
    // /proc/PID/stat: "pid (comm) state ppid ..."; comm may hold spaces and parentheses.
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const ppid = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1];
    if (!ppid || ppid === '0') return undefined;
    return (await readFile(`/proc/${ppid}/comm`, 'utf8')).trim() || undefined;
  } catch {
    return undefined;
  }
}

function run(file: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { timeout: 2_000, maxBuffer: 8 * 1024 * 1024 }, (error, stdout) =>
      error ? reject(error) : resolve(stdout),
    );
  });
}
