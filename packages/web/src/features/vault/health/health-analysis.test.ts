import { describe, expect, it } from 'vitest';
import { scorePassword } from '@/lib/password-strength/zxcvbn-engine';
import {
  buildReport,
  insecureUrlsOf,
  lastPasswordChange,
  oldFromTimes,
  plainlyRandom,
  reusedGroupsOf,
  YEAR_MS,
  type ItemFacts,
} from './health-analysis';

const NOW = Date.parse('2026-06-01T00:00:00Z');
const DAY = 24 * 60 * 60 * 1000;
const iso = (ms: number) => new Date(ms).toISOString();

function facts(id: string, parts: Partial<ItemFacts> = {}): ItemFacts {
  return {
    id,
    hasPassword: true,
    isLogin: true,
    passwordDigest: `p-${id}`,
    score: null,
    breachCount: 0,
    urls: ['https://example.com'],
    hasTotp: true,
    passwordChangedAt: iso(NOW - DAY),
    ...parts,
  };
}

describe('plainlyRandom: the cheap stand-in for zxcvbn', () => {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!@#$%^&*-_';
  const random = (length: number) => {
    const bytes = crypto.getRandomValues(new Uint8Array(length));
    return [...bytes].map((byte) => alphabet[byte % alphabet.length]).join('');
  };

  it('vouches for nearly every generated password of 16+ characters', () => {
    const passing = Array.from({ length: 2000 }, () => random(20)).filter(plainlyRandom).length;
    expect(passing).toBeGreaterThan(1980);
  });

  it('never vouches for a password zxcvbn finds weak: random ones, and ones built to fool it', () => {
    const fooling = [
      'MonkeyDragonSunshine',
      'MONKEYdragonSUNSHINE',
      'PasswordMonkeyDragon',
      '1qaz2wsx3edc4rfv!Q',
      '1qaz2wsx3edc4rfv5tgb',
      'qwertyuiopasdfghjkl1',
      'Abcdefghijklmnop1!',
      'Password1Password1!!',
      'aaaaaaaaaaaaaaaaaaaaB1!',
      'Princess!Football1',
      'iloveyouprincess1234',
    ];
    const vouched = [...fooling, ...Array.from({ length: 40 }, () => random(16))].filter(plainlyRandom);
    for (const password of vouched) expect(scorePassword(password).score, password).toBeGreaterThanOrEqual(3);
  });

  it('leaves short passwords and passphrases to zxcvbn', () => {
    expect(plainlyRandom('Zq7!vK2#pL9@')).toBe(false);
    expect(plainlyRandom('correct-horse-battery-staple')).toBe(false);
  });
});

describe('health rules', () => {
  it('finds web addresses without HTTPS', () => {
    expect(insecureUrlsOf(['https://a.example', 'http://b.example/login', ' HTTP://c.example', 'ftp://d'])).toEqual([
      'http://b.example/login',
      ' HTTP://c.example',
    ]);
  });

  it('settles the age from the times when it can, and asks for the history otherwise', () => {
    expect(oldFromTimes(iso(NOW - 3 * YEAR_MS), iso(NOW - YEAR_MS - DAY), NOW)).toBe(true);
    expect(oldFromTimes(iso(NOW - 100 * DAY), iso(NOW - DAY), NOW)).toBe(false);
    expect(oldFromTimes(iso(NOW - 2 * YEAR_MS), iso(NOW - DAY), NOW)).toBeUndefined();
  });

  it('dates the password by the newest earlier version that had another one', () => {
    const versions = [
      { password: 'same', savedAt: iso(NOW - 10 * DAY), replacedAt: iso(NOW - DAY) },
      { password: 'same', savedAt: iso(NOW - 400 * DAY), replacedAt: iso(NOW - 10 * DAY) },
      { password: 'older', savedAt: iso(NOW - 800 * DAY), replacedAt: iso(NOW - 400 * DAY) },
    ];
    expect(lastPasswordChange('same', versions, iso(NOW - 800 * DAY))).toBe(iso(NOW - 400 * DAY));
    // Only notes changed since: the password dates from the oldest kept version.
    expect(lastPasswordChange('same', versions.slice(0, 2), iso(NOW - 900 * DAY))).toBe(iso(NOW - 400 * DAY));
    expect(lastPasswordChange('same', [], iso(NOW - 900 * DAY))).toBe(iso(NOW - 900 * DAY));
  });

  it('groups items that share a password, largest group first, and ignores items without one', () => {
    const groups = reusedGroupsOf([
      { id: 'a', passwordDigest: 'x' },
      { id: 'b', passwordDigest: 'y' },
      { id: 'c', passwordDigest: 'x' },
      { id: 'd', passwordDigest: 'y' },
      { id: 'e', passwordDigest: 'y' },
      { id: 'f', passwordDigest: null },
      { id: 'g', passwordDigest: null },
      { id: 'h', passwordDigest: 'z' },
    ]);
    expect(groups).toEqual([
      ['b', 'd', 'e'],
      ['a', 'c'],
    ]);
  });
});

describe('buildReport', () => {
  const items = [
    facts('strong'),
    facts('weak', { score: 1 }),
    facts('fair', { score: 3 }),
    facts('reused-1', { passwordDigest: 'shared' }),
    facts('reused-2', { passwordDigest: 'shared' }),
    facts('breached', { breachCount: 42 }),
    facts('plain-http', { urls: ['http://intranet.example'] }),
    facts('old', { passwordChangedAt: iso(NOW - YEAR_MS - DAY) }),
    facts('no-totp', { hasTotp: false }),
    facts('note', { hasPassword: false, isLogin: false, passwordDigest: null, urls: [], hasTotp: false }),
  ];

  it('counts each category and lists each item with its problems', () => {
    const report = buildReport(items, { now: NOW, breachChecked: true });
    expect(report.counts).toEqual({ breached: 1, weak: 1, reused: 2, insecureUrl: 1, old: 1, noTotp: 1 });
    expect(report.checked).toBe(9);
    expect(report.findings.map((finding) => [finding.id, finding.categories])).toEqual([
      ['weak', ['weak']],
      ['reused-1', ['reused']],
      ['reused-2', ['reused']],
      ['breached', ['breached']],
      ['plain-http', ['insecureUrl']],
      ['old', ['old']],
      ['no-totp', ['noTotp']],
    ]);
    expect(report.reusedGroups).toEqual([['reused-1', 'reused-2']]);
    expect(report.score).toBeLessThan(100);
  });

  it('scores 100 for a vault with no problem, and lower the worse it gets', () => {
    expect(buildReport([facts('a'), facts('b')], { now: NOW, breachChecked: false }).score).toBe(100);
    const oneWeak = buildReport([facts('a'), facts('b', { score: 0 })], { now: NOW, breachChecked: false }).score;
    const oneOld = buildReport([facts('a'), facts('b', { passwordChangedAt: iso(0) })], { now: NOW, breachChecked: false }).score;
    expect(oneWeak).toBe(50);
    expect(oneOld).toBeGreaterThan(oneWeak);
  });

  it('leaves excluded items out of the lists, the counts, the groups and the score', () => {
    const report = buildReport(items, { now: NOW, breachChecked: true, excluded: new Set(['weak', 'reused-2']) });
    expect(report.counts.weak).toBe(0);
    expect(report.counts.reused).toBe(0);
    expect(report.reusedGroups).toEqual([]);
    expect(report.findings.map((finding) => finding.id)).not.toContain('weak');
    expect(report.checked).toBe(7);
  });
});
