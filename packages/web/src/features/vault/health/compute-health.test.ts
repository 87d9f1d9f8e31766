import { generateVaultKeyBytes, importVaultKey } from '@lockit/crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BreachChecker } from '@/lib/password-strength/breach-check';
import { scorePassword } from '@/lib/password-strength/zxcvbn-engine';
import { startPwnedStandIn, type PwnedStandIn } from '@lockit/test-support/pwned-stand-in';
import { emptyDraft, sealEntry } from '@lockit/client-core';
import { computeBreachCounts, computeHealthFacts, digestsOf, type HealthItemInput, type Scorer } from './compute-health';
import { buildReport, YEAR_MS } from './health-analysis';

const NOW = Date.parse('2026-06-01T00:00:00Z');
const DAY = 24 * 60 * 60 * 1000;
const iso = (ms: number) => new Date(ms).toISOString();
const scorer: Scorer = async (password) => scorePassword(password).score;

let vaultKey: CryptoKey;
let standIn: PwnedStandIn;
beforeAll(async () => {
  vaultKey = await importVaultKey(generateVaultKeyBytes());
  standIn = await startPwnedStandIn({ letmein1: 3, 'Tr0ub4dor&3': 12 });
});
afterAll(() => standIn.close());

async function item(
  password: string,
  {
    url = 'https://example.com',
    createdAt = NOW - DAY,
    updatedAt,
    totp = 'JBSWY3DPEHPK3PXP',
  }: { url?: string; createdAt?: number; updatedAt?: number; totp?: string } = {},
): Promise<HealthItemInput> {
  const id = crypto.randomUUID();
  const sealed = await sealEntry(vaultKey, id, {
    ...emptyDraft('login'),
    serviceName: `Item ${id.slice(0, 4)}`,
    username: 'me',
    password,
    urls: [url],
    totp,
  });
  const { storedFieldSet } = await import('@lockit/crypto');
  return {
    id,
    isLogin: true,
    createdAt: iso(createdAt),
    updatedAt: iso(updatedAt ?? createdAt),
    urls: [url],
    hasTotp: totp !== '',
    password: sealed.password,
    fieldSet: storedFieldSet(sealed),
  };
}

describe('computeHealthFacts (the worker body) on real ciphertexts', () => {
  it('opens, scores and dates every password, and gives back neither passwords nor digests', async () => {
    const strong = 'q7L!x2Vr9#Kp4Zt8Wm6$';
    const inputs = [
      await item(strong),
      await item('letmein1'),
      await item('letmein1', { url: 'http://old.example' }),
      await item('Tr0ub4dor&3', { createdAt: NOW - 2 * YEAR_MS }),
      await item('a quiet violet orchard', { totp: '' }),
    ];
    const { facts, passwords, zxcvbnRuns } = await computeHealthFacts({ vaultKey, now: NOW, items: inputs }, scorer);
    const digests = await digestsOf(passwords);
    // The random one was vouched for without zxcvbn; the reused one was scored once.
    expect(zxcvbnRuns).toBe(3);
    const posted = JSON.stringify(facts);
    for (const secret of [strong, 'letmein1', 'Tr0ub4dor&3', ...digests.values()]) expect(posted).not.toContain(secret);

    const report = buildReport(facts, { now: NOW, breachChecked: false });
    expect(report.counts).toMatchObject({ weak: 2, reused: 2, insecureUrl: 1, old: 1, noTotp: 1 });
    expect(report.reusedGroups).toEqual([[inputs[1]!.id, inputs[2]!.id]]);
  });

  it('leaves out an item whose password does not open under this vault key', async () => {
    const good = await item('q7L!x2Vr9#Kp4Zt8Wm6$');
    const moved = { ...(await item('x')), password: good.password };
    const { facts } = await computeHealthFacts({ vaultKey, now: NOW, items: [good, moved] }, scorer);
    expect(facts.map((fact) => fact.id)).toEqual([good.id]);
  });

  it('dates an item created long ago and edited lately by its history', async () => {
    const current = await item('q7L!x2Vr9#Kp4Zt8Wm6$', { createdAt: NOW - 3 * YEAR_MS, updatedAt: NOW - DAY });
    // An edit of the notes a day ago kept the same password; it was set two years ago.
    const same = {
      password: current.password,
      fieldSet: current.fieldSet,
      savedAt: iso(NOW - 2 * YEAR_MS),
      replacedAt: iso(NOW - DAY),
    };
    const first = await item('an older password of mine', { createdAt: NOW - 3 * YEAR_MS });
    const firstVersion = {
      password: first.password,
      fieldSet: first.fieldSet,
      savedAt: iso(NOW - 3 * YEAR_MS),
      replacedAt: iso(NOW - 2 * YEAR_MS),
    };
    // Versions are sealed to their own entry id: reseal the first under the current id.
    const resealed = await sealEntry(vaultKey, current.id, {
      ...emptyDraft('login'),
      serviceName: 'x',
      password: 'an older password of mine',
      urls: ['https://example.com'],
      totp: 'JBSWY3DPEHPK3PXP',
    });
    const { storedFieldSet } = await import('@lockit/crypto');
    const history = [same, { ...firstVersion, password: resealed.password, fieldSet: storedFieldSet(resealed) }];
    const { facts } = await computeHealthFacts({ vaultKey, now: NOW, items: [{ ...current, history }] }, scorer);
    expect(facts[0]!.passwordChangedAt).toBe(iso(NOW - 2 * YEAR_MS));
    expect(buildReport(facts, { now: NOW, breachChecked: false }).counts.old).toBe(1);
  });

  it('counts breaches through the range API, one request per distinct prefix', async () => {
    const inputs = [
      await item('letmein1'),
      await item('letmein1'),
      await item('Tr0ub4dor&3'),
      await item('q7L!x2Vr9#Kp4Zt8Wm6$'),
    ];
    const { passwords } = await computeHealthFacts({ vaultKey, now: NOW, items: inputs }, scorer);
    const digests = await digestsOf(passwords);
    // One digest per item, equal passwords equal digests (upper-case hex SHA-1).
    expect(digests.size).toBe(4);
    expect(digests.get(inputs[0]!.id)).toBe(digests.get(inputs[1]!.id));
    expect(digests.get(inputs[2]!.id)).toMatch(/^[0-9A-F]{40}$/);
    const checker = new BreachChecker(standIn.url);
    const counts = await computeBreachCounts(digests, checker);
    expect(counts).toEqual({ [inputs[0]!.id]: 3, [inputs[1]!.id]: 3, [inputs[2]!.id]: 12 });
    expect(checker.requests).toBe(3);
  });
});
