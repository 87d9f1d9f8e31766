import { describe, expect, it } from 'vitest';
import { describeUserAgent } from './describe-user-agent';

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
});
