import { describe, expect, it } from 'vitest';
import { apiPaths, VAULT_STATE_HEADER } from '@lockit/contract';
import { signedInUser } from './helpers/accounts';
import { useTestApp } from './helpers/test-app';

const APP_ORIGIN = 'https://app.example.com';
// The Host check answers only for hosts it knows (host-check.test.ts); this one is ours here.
const h = useTestApp({ config: { appOrigin: APP_ORIGIN, allowedHosts: [{ name: 'vault.example.com', port: undefined }] } });
const REFUSED = { message: 'Request refused: it did not come from the Lockit app.' };

describe('origin check on state-changing requests', () => {
  it('refuses a cross-site POST even with a valid session cookie', async () => {
    const { client } = await signedInUser(h);
    const response = await client.post(apiPaths.verifySession, undefined, {
      bare: true,
      headers: { origin: 'https://evil.example' },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual(REFUSED);
  });

  it('refuses a cross-site POST that also carries the client header', async () => {
    const response = await h.client().post(
      apiPaths.login,
      { username: 'someone', password: 'A'.repeat(43) },
      {
        headers: { origin: 'https://evil.example' },
      },
    );
    expect(response.statusCode).toBe(403);
  });

  it('refuses PUT and DELETE from another site before touching anything', async () => {
    const { client } = await signedInUser(h);
    const rename = await client.put(
      apiPaths.updateUsername,
      { username: 'hijacked_name' },
      { headers: { origin: 'https://evil.example' } },
    );
    expect(rename.statusCode).toBe(403);
    const remove = await client.delete(apiPaths.deleteAccount, { headers: { origin: 'https://evil.example' } });
    expect(remove.statusCode).toBe(403);
    expect((await client.get(apiPaths.profile)).statusCode).toBe(200);
  });

  it('refuses a request with neither Origin nor the client header', async () => {
    const response = await h.client().post(apiPaths.logout, undefined, { bare: true });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual(REFUSED);
  });

  it("accepts a browser extension's origin only with the client header", async () => {
    for (const origin of [
      'chrome-extension://abcdefghijklmnopabcdefghijklmnop',
      'moz-extension://2b7e1516-28ae-4d2a-abf7-158809cf4f3c',
    ]) {
      const withHeader = await h.client().post(apiPaths.logout, undefined, { headers: { origin } });
      expect(withHeader.statusCode, origin).toBe(200);
      const bare = await h.client().post(apiPaths.logout, undefined, { bare: true, headers: { origin } });
      expect(bare.statusCode, origin).toBe(403);
    }
    const lookAlike = await h.client().post(apiPaths.logout, undefined, { headers: { origin: 'chrome-extension.evil.example' } });
    expect(lookAlike.statusCode).toBe(403);
  });

  it('refuses Origin "null" (sandboxed frames, file pages)', async () => {
    const response = await h.client().post(apiPaths.logout, undefined, { bare: true, headers: { origin: 'null' } });
    expect(response.statusCode).toBe(403);
  });

  it("accepts the server's own origin, with or without the default port", async () => {
    for (const [host, origin] of [
      ['vault.example.com', 'http://vault.example.com'],
      ['vault.example.com:80', 'http://vault.example.com'],
      ['localhost:3000', 'http://localhost:3000'],
    ]) {
      const response = await h
        .client()
        .post(apiPaths.logout, undefined, { bare: true, headers: { host: host!, origin: origin! } });
      expect(response.statusCode, `${host} ${origin}`).toBe(200);
    }
  });

  it('refuses an origin that differs from the host only by port or scheme', async () => {
    const port = await h
      .client()
      .post(apiPaths.logout, undefined, { bare: true, headers: { host: 'localhost:3000', origin: 'http://localhost:3001' } });
    const scheme = await h
      .client()
      .post(apiPaths.logout, undefined, { bare: true, headers: { host: 'localhost:3000', origin: 'https://localhost:3000' } });
    expect(port.statusCode).toBe(403);
    expect(scheme.statusCode).toBe(403);
  });

  it('accepts APP_ORIGIN', async () => {
    const response = await h.client().post(apiPaths.logout, undefined, { bare: true, headers: { origin: APP_ORIGIN } });
    expect(response.statusCode).toBe(200);
  });

  it('accepts the client header when the browser sent no Origin', async () => {
    expect((await h.client().post(apiPaths.logout)).statusCode).toBe(200);
  });

  it('does not check GET', async () => {
    const { client } = await signedInUser(h);
    const response = await client.get(apiPaths.profile, { bare: true, headers: { origin: 'https://evil.example' } });
    expect(response.statusCode).toBe(200);
  });
});

describe('CORS for APP_ORIGIN', () => {
  it('answers the preflight of APP_ORIGIN with credentials allowed', async () => {
    const response = await h.app.inject({
      method: 'OPTIONS',
      url: apiPaths.login,
      headers: {
        origin: APP_ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,x-lockit-client',
      },
    });
    expect(response.statusCode).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe(APP_ORIGIN);
    expect(response.headers['access-control-allow-credentials']).toBe('true');
    expect(String(response.headers['access-control-allow-headers'])).toContain('x-lockit-client');
  });

  it('grants nothing to another origin', async () => {
    const response = await h.app.inject({
      method: 'OPTIONS',
      url: apiPaths.login,
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
    const get = await h.app.inject({ method: 'GET', url: apiPaths.profile, headers: { origin: 'https://evil.example' } });
    expect(get.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('lets APP_ORIGIN read answers with credentials', async () => {
    const response = await h.app.inject({ method: 'GET', url: apiPaths.profile, headers: { origin: APP_ORIGIN } });
    expect(response.headers['access-control-allow-origin']).toBe(APP_ORIGIN);
    expect(response.headers['access-control-allow-credentials']).toBe('true');
  });

  it('lets APP_ORIGIN read Retry-After, so the app can say how long to wait', async () => {
    const response = await h.app.inject({ method: 'GET', url: apiPaths.profile, headers: { origin: APP_ORIGIN } });
    expect(String(response.headers['access-control-expose-headers'])).toContain('retry-after');
  });

  it('lets APP_ORIGIN send the vault state with a write and read it from the list (decision 0053)', async () => {
    const preflight = await h.app.inject({
      method: 'OPTIONS',
      url: apiPaths.addEntry,
      headers: {
        origin: APP_ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': `content-type,${VAULT_STATE_HEADER}`,
      },
    });
    expect(String(preflight.headers['access-control-allow-headers'])).toContain(VAULT_STATE_HEADER);
    const response = await h.app.inject({ method: 'GET', url: apiPaths.listEntries, headers: { origin: APP_ORIGIN } });
    expect(String(response.headers['access-control-expose-headers'])).toContain(VAULT_STATE_HEADER);
  });
});
