import { describe, expect, it } from 'vitest';
import { parseEnv } from '../src/config/load-config';

/** SIGNUP_MODE, SIGNUP_ALLOWED_DOMAINS and INVITE_LIFETIME_DAYS as the server reads them at start. */
describe('sign-up settings', () => {
  it('default to open, any domain, invitations for 7 days', () => {
    const env = parseEnv({});
    expect([env.SIGNUP_MODE, env.SIGNUP_ALLOWED_DOMAINS, env.INVITE_LIFETIME_DAYS]).toEqual(['open', [], 7]);
    expect(parseEnv({ SIGNUP_MODE: ' ', SIGNUP_ALLOWED_DOMAINS: ' , ' }).SIGNUP_MODE).toBe('open');
  });

  it('read the mode in any case', () => {
    expect(parseEnv({ SIGNUP_MODE: 'Invite' }).SIGNUP_MODE).toBe('invite');
    expect(parseEnv({ SIGNUP_MODE: 'CLOSED' }).SIGNUP_MODE).toBe('closed');
  });

  it('refuse an unknown mode with the values it may take', () => {
    expect(() => parseEnv({ SIGNUP_MODE: 'invites' })).toThrow(
      'Invalid configuration: SIGNUP_MODE must be one of open, invite, closed.',
    );
  });

  it('read the domain list trimmed, lower-cased, without a leading @ or repeats', () => {
    expect(parseEnv({ SIGNUP_ALLOWED_DOMAINS: ' Example.COM, @corp.example.org,example.com,' }).SIGNUP_ALLOWED_DOMAINS).toEqual([
      'example.com',
      'corp.example.org',
    ]);
  });

  it('refuse a value that is not a list of domains, naming the bad entries', () => {
    for (const bad of ['example', 'a@example.com', 'https://example.com', 'exa mple.com', '*.example.com', 'bücher.example']) {
      expect(() => parseEnv({ SIGNUP_ALLOWED_DOMAINS: `ok.example, ${bad}` }), bad).toThrow(
        new RegExp(`^Invalid configuration: SIGNUP_ALLOWED_DOMAINS has "${escape(bad.toLowerCase())}", which is not a domain`),
      );
    }
  });

  it('refuse an invitation lifetime outside 1 to 365 days', () => {
    expect(parseEnv({ INVITE_LIFETIME_DAYS: '30' }).INVITE_LIFETIME_DAYS).toBe(30);
    expect(() => parseEnv({ INVITE_LIFETIME_DAYS: '0' })).toThrow('INVITE_LIFETIME_DAYS must be between 1 and 365.');
    expect(() => parseEnv({ INVITE_LIFETIME_DAYS: 'a week' })).toThrow('INVITE_LIFETIME_DAYS must be a number.');
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
