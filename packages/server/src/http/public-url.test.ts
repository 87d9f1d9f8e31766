import { describe, expect, it } from 'vitest';
import { browserUrl, isLocalOrAnyHost, readyAnnouncement, type ListeningServer } from './public-url';

const server = (facts: Partial<ListeningServer>): ListeningServer => ({
  host: '127.0.0.1',
  port: 3000,
  appOrigin: undefined,
  servesWebApp: true,
  behindProxy: false,
  ...facts,
});

describe('browserUrl', () => {
  it.each(['127.0.0.1', '127.1.2.3', '0.0.0.0', '::', '::1', '[::1]', 'localhost', 'LOCALHOST', '::ffff:127.0.0.1'])(
    'names the loopback or any-address host %s as localhost, a secure context',
    (host) => {
      expect(isLocalOrAnyHost(host)).toBe(true);
      expect(browserUrl(host, 3999)).toBe('http://localhost:3999');
    },
  );

  it('keeps any other host as it is, bracketing an IPv6 address', () => {
    expect(isLocalOrAnyHost('192.168.1.20')).toBe(false);
    expect(browserUrl('192.168.1.20', 3000)).toBe('http://192.168.1.20:3000');
    expect(browserUrl('vault.internal', 8080)).toBe('http://vault.internal:8080');
    expect(browserUrl('fd00::5', 3000)).toBe('http://[fd00::5]:3000');
  });

  it('leaves out the default port as a person would', () => {
    expect(browserUrl('0.0.0.0', 80)).toBe('http://localhost');
  });
});

describe('readyAnnouncement', () => {
  it('tells a person on this machine to open localhost with the bound port', () => {
    expect(readyAnnouncement(server({ port: 41234 }))).toEqual({
      url: 'http://localhost:41234',
      message: 'Lockit is ready: open http://localhost:41234 in a browser on this machine',
    });
  });

  it('points at the configured public origin when the web app is served from elsewhere', () => {
    const ready = readyAnnouncement(server({ appOrigin: 'https://vault.example.com' }));
    expect(ready.url).toBe('https://vault.example.com');
    expect(ready.message).toBe(
      'Lockit is ready: open https://vault.example.com (this process serves its API at http://localhost:3000)',
    );
  });

  it('says when only the API is served', () => {
    expect(readyAnnouncement(server({ servesWebApp: false })).message).toMatch(
      /^Lockit API is ready at http:\/\/localhost:3000 \(no web app build/,
    );
  });

  it('warns that a plain-HTTP address other than localhost needs HTTPS in front', () => {
    const ready = readyAnnouncement(server({ host: '192.168.1.20' }));
    expect(ready.url).toBe('http://192.168.1.20:3000');
    expect(ready.message).toContain('only over HTTPS or on localhost');
  });

  it("sends a person behind a proxy to the proxy's https address", () => {
    expect(readyAnnouncement(server({ host: '10.0.0.5', behindProxy: true })).message).toBe(
      "Lockit is listening at http://10.0.0.5:3000; open your proxy's https:// address",
    );
    expect(readyAnnouncement(server({ host: '0.0.0.0', behindProxy: true })).message).toContain(
      "or your proxy's https:// address",
    );
  });
});
