import { describe, expect, it } from 'vitest';
import Bowser from 'bowser';
import { describeUserAgent, KNOWN_BROWSERS, KNOWN_SYSTEMS } from './describe-user-agent';

describe('describeUserAgent', () => {
  it('names the browser by its major version and the system as people know it', () => {
    const cases: Array<[string, string, string]> = [
      [
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0',
        'Microsoft Edge 126',
        'Windows 10',
      ],
      [
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
        'Safari 17',
        'macOS 14',
      ],
      [
        'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
        'Chrome 126',
        'Android 14',
      ],
    ];
    for (const [userAgent, browser, system] of cases) expect(describeUserAgent(userAgent)).toEqual({ browser, system });
  });

  it('answers null for what it cannot name, and never throws on what a client sends', () => {
    for (const userAgent of [null, '', '   ', 'curl/8.5.0', '<script>alert(1)</script>', 'A'.repeat(300), '\u0000\uffff']) {
      const described = describeUserAgent(userAgent);
      expect(described.browser === null || typeof described.browser === 'string').toBe(true);
      expect(described.system).toBeNull();
    }
    expect(describeUserAgent(null)).toEqual({ browser: null, system: null });
    expect(describeUserAgent('curl/8.5.0')).toEqual({ browser: null, system: null });
  });

  it('shows no browser or system name a User-Agent invents, only names from the fixed lists', () => {
    const invented = [
      'This sign-in was Lockit support, reply with your master password/1.0 (X11; Linux x86_64)',
      'Lockit support: call +1 555 0100/2',
      'Mozilla/5.0 (X11; Linux x86_64) Lockit Security Team/3',
      'Mozilla/5.0 (Lockit; Support OS 5) Chrome/999999999.0',
    ];
    for (const userAgent of invented) {
      const { browser, system } = describeUserAgent(userAgent);
      for (const name of [browser, system]) {
        if (name === null) continue;
        expect(name, userAgent).not.toMatch(/lockit|support|password|call/i);
        expect(name, userAgent).toMatch(/^[A-Za-z][\w .-]* ?\d{0,4}$/);
      }
    }
    expect(describeUserAgent(invented[0]!)).toEqual({ browser: null, system: 'Linux' });
    expect(describeUserAgent(invented[1]!)).toEqual({ browser: null, system: null });
    expect(describeUserAgent(invented[3]!).browser).toBe('Chrome');
  });

  it("names Lockit's command line by its own User-Agent, with a fixed name only", () => {
    expect(describeUserAgent('LockitCLI/0.1.0 (Linux; Node 20.19.0)')).toEqual({
      browser: 'Lockit command line',
      system: 'Linux',
    });
    expect(describeUserAgent('LockitCLI/0.1.0 (Macintosh; Node 20.19.0)').browser).toBe('Lockit command line');
    // Anything else that mentions it is read as any other User-Agent.
    expect(describeUserAgent('LockitCLI/support call us (Linux)').browser).toBeNull();
    expect(describeUserAgent('Mozilla/5.0 LockitCLI/0.1.0 (Linux)').browser).not.toBe('Lockit command line');
  });

  it('lists only names bowser itself gives, so a real browser is never shown as unknown for a spelling', () => {
    const bowserBrowsers = new Set(Object.values(Bowser.BROWSER_MAP));
    const bowserSystems = new Set(Object.values(Bowser.OS_MAP));
    for (const name of KNOWN_BROWSERS) expect(bowserBrowsers.has(name), name).toBe(true);
    for (const name of KNOWN_SYSTEMS) expect(bowserSystems.has(name), name).toBe(true);
  });
});
