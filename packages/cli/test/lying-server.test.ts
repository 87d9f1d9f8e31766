import { apiPaths } from '@lockit/contract';
import { describe, expect, it } from 'vitest';
import { databaseKind, seedVault } from './support/cli-against-server';
import { useCliServer } from './support/use-cli-server';

const suite = useCliServer();

describe(`lockit against a lying server (${databaseKind})`, () => {
  it('refuses weakened key settings at prelogin and sends nothing derived from the password', async () => {
    const holder = await suite.server.account();
    suite.server.proxy.rewrite({
      method: 'POST',
      path: apiPaths.prelogin,
      rewrite: (response) => {
        (response.body as { data: { kdf: { memoryKiB: number } } }).data.kdf.memoryKiB = 1024;
      },
    });
    const cli = await suite.home();
    const before = suite.server.proxy.recorded.length;
    const login = await cli.login(suite.server.proxy.url, holder);
    suite.server.proxy.clearRules();
    expect(login.code).toBe(8);
    expect(login.stdout).toBe('');
    const sent = suite.server.proxy.recorded.slice(before);
    expect(sent.some((request) => request.path === apiPaths.login)).toBe(false);
    for (const request of sent) expect(request.body).not.toContain(holder.account.password);
  });

  it("refuses to show a password the server moved from another entry, and shows neither entry's secret", async () => {
    const holder = await suite.server.account();
    const ids = await seedVault(holder, [
      { serviceName: 'Bank', username: 'me', password: 'bank-secret' },
      { serviceName: 'Forum', username: 'me', password: 'forum-secret' },
    ]);
    const cli = await suite.home();
    expect((await cli.login(suite.server.proxy.url, holder)).code).toBe(0);
    suite.server.proxy.rewrite({
      method: 'GET',
      path: apiPaths.listEntries,
      rewrite: (response) => {
        const entries = (response.body as { data: Array<{ id: string; password: string }> }).data;
        const bank = entries.find((entry) => entry.id === ids.get('Bank'))!;
        const forum = entries.find((entry) => entry.id === ids.get('Forum'))!;
        bank.password = forum.password;
      },
    });
    const get = await cli.run(['get', 'Bank', 'password']);
    suite.server.proxy.clearRules();
    expect(get.code).toBe(8);
    expect(get.stdout).toBe('');
    expect(get.stderr).not.toMatch(/bank-secret|forum-secret/);
    expect((await cli.run(['get', 'Bank', 'password'])).stdout).toBe('bank-secret\n');
  });
});
