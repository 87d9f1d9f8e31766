import { describe, expect, it } from 'vitest';
import { apiPaths } from '@lockit/contract';
import { signedInUser } from './helpers/accounts';
import type { InjectClient } from './helpers/inject-client';
import { snapshotDatabase } from './helpers/db-snapshot';
import { useTestApp } from './helpers/test-app';

/** No APP_ORIGIN: the app and the API share one origin, the default setup. */
const h = useTestApp();
const EVIL = 'https://evil.example';
const REFUSED = { message: 'Request refused: it did not come from the Lockit app.' };

/** What a hidden, auto-submitted <form> on another site sends: no custom header, the victim's cookies. */
function formPost(client: InjectClient, url: string, enctype: string, body: string, origin?: string) {
  return client.request('POST', url, {
    bare: true,
    headers: { 'content-type': enctype, ...(origin ? { origin } : {}) },
    body,
  });
}

async function expectNothingHappened(client: InjectClient, before: Awaited<ReturnType<typeof snapshotDatabase>>) {
  expect(await snapshotDatabase(h.db)).toEqual(before);
  expect((await client.get(apiPaths.profile)).statusCode).toBe(200);
}

describe('a cross-site form post', () => {
  it('urlencoded, from evil.example, with the session cookie: refused, nothing changes', async () => {
    const { client } = await signedInUser(h);
    const before = await snapshotDatabase(h.db);
    for (const url of [apiPaths.logout, apiPaths.addEntry, apiPaths.verifySession, apiPaths.createUser]) {
      const response = await formPost(client, url, 'application/x-www-form-urlencoded', 'username=hijacked_name', EVIL);
      expect(response.statusCode, url).toBe(403);
      expect(response.json()).toEqual(REFUSED);
    }
    await expectNothingHappened(client, before);
  });

  it('multipart, from evil.example: refused', async () => {
    const { client } = await signedInUser(h);
    const before = await snapshotDatabase(h.db);
    const body = '--x\r\nContent-Disposition: form-data; name="serviceName"\r\n\r\nv1.AAAA.BBBB\r\n--x--\r\n';
    const response = await formPost(client, apiPaths.addEntry, 'multipart/form-data; boundary=x', body, EVIL);
    expect(response.statusCode).toBe(403);
    await expectNothingHappened(client, before);
  });

  it('with no Origin and no custom header (older browsers, privacy proxies): refused', async () => {
    const { client } = await signedInUser(h);
    const before = await snapshotDatabase(h.db);
    for (const [enctype, body] of [
      ['application/x-www-form-urlencoded', 'a=b'],
      ['multipart/form-data; boundary=x', '--x--\r\n'],
      ['text/plain', '{"username":"hijacked_name"}'],
    ] as const) {
      const response = await formPost(client, apiPaths.logout, enctype, body);
      expect(response.statusCode, enctype).toBe(403);
      expect(response.json()).toEqual(REFUSED);
    }
    await expectNothingHappened(client, before);
  });

  it('text/plain JSON (the one body a form can shape like JSON) is refused even from our own origin', async () => {
    const { client } = await signedInUser(h);
    const before = await snapshotDatabase(h.db);
    for (const url of [apiPaths.logout, apiPaths.addEntry, apiPaths.verifySession]) {
      const response = await formPost(client, url, 'text/plain', '{"username":"hijacked_name"}', 'http://localhost');
      expect(response.statusCode, url).toBe(415);
    }
    await expectNothingHappened(client, before);
  });

  it('as a top-level GET navigation changes nothing either', async () => {
    const { client } = await signedInUser(h);
    for (const url of [apiPaths.logout, apiPaths.deleteAccount, apiPaths.refreshToken]) {
      expect((await client.get(url, { bare: true, headers: { origin: EVIL } })).statusCode, url).toBe(404);
    }
    expect((await client.get(apiPaths.profile)).statusCode).toBe(200);
  });
});

describe('CORS without APP_ORIGIN', () => {
  it('grants nothing to any other origin: no preflight approval, no readable answers', async () => {
    const { client } = await signedInUser(h);
    const preflight = await h.app.inject({
      method: 'OPTIONS',
      url: apiPaths.listEntries,
      headers: { origin: EVIL, 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-lockit-client' },
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(preflight.headers['access-control-allow-credentials']).toBeUndefined();
    const read = await client.get(apiPaths.listEntries, { headers: { origin: EVIL } });
    expect(read.headers['access-control-allow-origin']).toBeUndefined();
    expect(read.headers['cross-origin-resource-policy']).toBe('same-origin');
  });
});
