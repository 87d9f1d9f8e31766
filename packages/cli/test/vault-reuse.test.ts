import { apiPaths } from '@lockit/contract';
import { startTamperingProxy, type TamperingProxy } from '@lockit/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import { databaseKind } from './support/cli-against-server';
import { useCliServer } from './support/use-cli-server';

const suite = useCliServer();
let proxy: TamperingProxy | undefined;
afterAll(async () => {
  await proxy?.close();
});

const listAnswers = (from: number) =>
  proxy!.recorded
    .slice(from)
    .filter((request) => request.method === 'GET' && request.path === apiPaths.listEntries)
    .map((request) => ({ status: request.answer?.status, conditional: request.headers['if-none-match'] !== undefined }));

describe(`the agent reuses the vault it checked while the server's list is unchanged (${databaseKind})`, () => {
  it('answers a second command from a 304, sees a change made elsewhere at once, and reads whole after an unlock', async () => {
    // A proxy that lets the agent's If-None-Match through, so the server's 304 reaches it.
    proxy = await startTamperingProxy(suite.server.server.url, { conditionalRequests: true });
    const { holder, cli } = await suite.signedIn([{ serviceName: 'Forge', username: 'dev', password: 'forge-1' }]);
    const viaProxy = await suite.home();
    expect((await viaProxy.login(proxy.url, holder)).code).toBe(0);

    let from = proxy.recorded.length;
    expect((await viaProxy.run(['get', 'Forge', 'password'])).stdout).toBe('forge-1\n');
    expect((await viaProxy.run(['get', 'Forge', 'username'])).stdout).toBe('dev\n');
    const unchanged = listAnswers(from);
    expect(unchanged.at(-1)).toEqual({ status: 304, conditional: true });

    // Another device changes the item: the next command reads and checks the new list.
    expect((await cli.run(['edit', 'Forge', '--password-stdin'], { input: 'forge-2\n' })).code).toBe(0);
    from = proxy.recorded.length;
    expect((await viaProxy.run(['get', 'Forge', 'password'])).stdout).toBe('forge-2\n');
    expect(listAnswers(from)).toEqual([{ status: 200, conditional: true }]);

    // A lock forgets what was opened: the first command after the unlock reads the list whole.
    expect((await viaProxy.run(['lock'])).code).toBe(0);
    expect((await viaProxy.run(['unlock', '--password-stdin'], { input: `${holder.account.password}\n` })).code).toBe(0);
    from = proxy.recorded.length;
    expect((await viaProxy.run(['get', 'Forge', 'password'])).stdout).toBe('forge-2\n');
    expect(listAnswers(from)[0]).toEqual({ status: 200, conditional: false });
  });
});
