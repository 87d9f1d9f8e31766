import { describe, expect, it } from 'vitest';
import { apiPaths } from '@lockit/contract';
import { login, signedInUser, uniqueName } from './helpers/accounts';
import { useTestApp } from './helpers/test-app';

const window = (points: number) => ({ points, durationSeconds: 60 });
const h = useTestApp({ rateLimits: { updateUsernamePerAccount: window(3), updateUsernamePerIp: window(5) } });

/** A signed-in browser of a fresh account, at its own address. */
async function browserAt(ip: string) {
  const { account } = await signedInUser(h);
  const client = h.client(ip);
  expect((await login(client, account)).statusCode).toBe(200);
  return { account, client };
}

describe('username change is rate-limited like sign-up (each answer tells whether a name is taken)', () => {
  it('refuses the account a 4th try within the window, and changes nothing then', async () => {
    const { account: other } = await signedInUser(h);
    const { account, client } = await browserAt('10.1.0.1');
    for (let i = 0; i < 3; i++) {
      expect((await client.put(apiPaths.updateUsername, { username: other.username })).statusCode).toBe(409);
    }
    const refused = await client.put(apiPaths.updateUsername, { username: uniqueName('free') });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json().message).toMatch(/^Too many attempts\. Try again in \d+ (seconds?|minutes?)\.$/);
    expect((await client.get(apiPaths.profile)).json().data.username).toBe(account.username);
  });

  it('limits one address across accounts', async () => {
    const ip = '10.1.0.2';
    const first = await browserAt(ip);
    const second = await browserAt(ip);
    for (let i = 0; i < 3; i++) {
      expect((await first.client.put(apiPaths.updateUsername, { username: uniqueName('probe') })).statusCode).toBe(200);
    }
    for (let i = 0; i < 2; i++) {
      expect((await second.client.put(apiPaths.updateUsername, { username: uniqueName('probe') })).statusCode).toBe(200);
    }
    expect((await second.client.put(apiPaths.updateUsername, { username: uniqueName('probe') })).statusCode).toBe(429);
    // Another address is not held back by this one's tries.
    const elsewhere = await browserAt('10.1.0.3');
    expect((await elsewhere.client.put(apiPaths.updateUsername, { username: uniqueName('probe') })).statusCode).toBe(200);
  });
});
