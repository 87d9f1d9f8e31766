import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiPaths, publicConfigResponseSchema } from '@lockit/contract';
import { ConfigError, loadConfig } from '../src/config/load-config';
import { useTestApp } from './helpers/test-app';

const tempDir = () => mkdtempSync(path.join(tmpdir(), 'lockit-breach-config-'));
const breachUrl = (value?: string) =>
  loadConfig({ DATA_DIR: tempDir(), ...(value === undefined ? {} : { BREACH_CHECK_URL: value }) }).then(
    (config) => config.breachCheckUrl,
  );

describe('BREACH_CHECK_URL', () => {
  it('defaults to Have I Been Pwned, is turned off by "off", and takes a mirror without its trailing slash', async () => {
    expect(await breachUrl()).toBe('https://api.pwnedpasswords.com');
    expect(await breachUrl('')).toBe('https://api.pwnedpasswords.com');
    expect(await breachUrl('off')).toBeNull();
    expect(await breachUrl(' OFF ')).toBeNull();
    expect(await breachUrl('https://pwned.internal.example/mirror/')).toBe('https://pwned.internal.example/mirror');
  });

  it.each(['ftp://mirror.example', 'not a url', 'https://user:pw@mirror.example', 'https://mirror.example/?x=1'])(
    'refuses %s with a message that says what is expected',
    async (value) => {
      const error = await breachUrl(value).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toContain('BREACH_CHECK_URL must be off or an http(s) URL');
    },
  );
});

describe('GET /api/config and the CSP with the breach check on', () => {
  const on = useTestApp({ config: { breachCheckUrl: 'http://127.0.0.1:4555/pwned' } });
  const off = useTestApp();

  it('tells any browser, without a session, where the range API is', async () => {
    const answer = await on.client().get(apiPaths.publicConfig);
    expect(answer.statusCode).toBe(200);
    expect(publicConfigResponseSchema.parse(answer.json()).data).toMatchObject({ breachCheckUrl: 'http://127.0.0.1:4555/pwned' });
    expect(answer.headers['content-security-policy']).toContain("connect-src 'self' http://127.0.0.1:4555;");
  });

  it('says null when the operator turned it off, and the CSP connects to the app only', async () => {
    const answer = await off.client().get(apiPaths.publicConfig);
    expect(answer.json()).toMatchObject({ message: 'OK', data: { breachCheckUrl: null } });
    expect(answer.headers['content-security-policy']).toContain("connect-src 'self';");
  });

  it('allows the range API origin on every answer, and nothing else beyond the app itself', async () => {
    const answer = await on.client().post(apiPaths.verifySession);
    const csp = String(answer.headers['content-security-policy']);
    expect(csp.match(/connect-src [^;]*/)?.[0]).toBe("connect-src 'self' http://127.0.0.1:4555");
    expect(csp).toContain("default-src 'self'");
  });
});
