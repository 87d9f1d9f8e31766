import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { peerInTable, peerProcess } from './peer-process';

describe('peerProcess (who is at the other end of an SSH agent connection)', () => {
  it('reads the process of the peer inode from ss -xpn rows', () => {
    const table = [
      'u_str ESTAB 0 0 * 26403 * 26404 users:(("python3",pid=14037,fd=3))',
      'u_str ESTAB 0 0 /run/lockit/ssh-agent.sock 26404 * 26403 users:(("node",pid=14026,fd=20))',
    ].join('\n');
    expect(peerInTable(table, '26404')).toEqual({ name: 'python3', pid: 14037 });
    expect(peerInTable(table, '99999')).toBeNull();
  });

  it.runIf(process.platform === 'linux')('names a real client process, its pid and its parent', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'lockit-peer-'));
    const path = join(folder, 'agent.sock');
    let resolveAccepted: (socket: Socket) => void = () => undefined;
    const accepted = new Promise<Socket>((resolve) => (resolveAccepted = resolve));
    const server = createServer((socket) => resolveAccepted(socket));
    await new Promise<void>((resolve) => server.listen(path, resolve));
    const child = spawn('sh', [
      '-c',
      `exec python3 -c "import socket,time;s=socket.socket(socket.AF_UNIX);s.connect('${path}');time.sleep(5)"`,
    ]);
    try {
      const peer = await peerProcess(await accepted);
      expect(peer).toEqual({ pid: child.pid, name: 'python3', parent: 'node' });
    } finally {
      child.kill();
      server.close();
      await rm(folder, { recursive: true, force: true });
    }
  });
});
