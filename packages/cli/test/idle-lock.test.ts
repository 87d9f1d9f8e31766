import { MemoryKeyValueStore } from '@lockit/client-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Agent } from '../src/agent/agent';
import { AgentSession } from '../src/agent/agent-session';
import { databaseKind, seedVault } from './support/cli-against-server';
import { useCliServer } from './support/use-cli-server';

const suite = useCliServer();

afterEach(() => {
  vi.useRealTimers();
});

/** The agent in this process, signed in to the real server with real timers. */
async function signedInAgent(idleLockSeconds: number) {
  const holder = await suite.server.account();
  await seedVault(holder, [{ serviceName: 'GitHub', username: 'octo', password: 'gh-secret-1' }]);
  const session = new AgentSession(new MemoryKeyValueStore());
  const agent = new Agent({ session, rememberLogin: async () => undefined, stop: () => undefined });
  await agent.handle('login', {
    server: suite.server.url,
    username: holder.account.username,
    password: holder.account.password,
    idleLockSeconds,
  });
  return { agent, session };
}

describe(`the agent's idle lock (${databaseKind})`, () => {
  it('locks after the idle time without a command, and each command starts the time again', async () => {
    const { agent, session } = await signedInAgent(60);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    await agent.handle('status', {});
    vi.advanceTimersByTime(59_000);
    expect(session.vault).not.toBeNull();
    await agent.handle('status', {});
    vi.advanceTimersByTime(59_000);
    expect(session.vault).not.toBeNull();
    vi.advanceTimersByTime(1_000);
    expect(session.vault).toBeNull();
    expect(await agent.handle('status', {})).toMatchObject({ signedIn: true, locked: true });
    vi.useRealTimers();
    await expect(agent.handle('get', { item: 'GitHub', field: 'password' })).rejects.toMatchObject({ code: 'locked' });
  });

  it('never locks by time with an idle lock of 0', async () => {
    const { agent, session } = await signedInAgent(0);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    await agent.handle('status', {});
    vi.advanceTimersByTime(7 * 24 * 3600 * 1000);
    expect(session.vault).not.toBeNull();
    vi.useRealTimers();
    expect(await agent.handle('get', { item: 'GitHub', field: 'password' })).toEqual({ value: 'gh-secret-1' });
  });
});
