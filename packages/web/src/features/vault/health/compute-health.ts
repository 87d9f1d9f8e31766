import { decryptField, type EntryFieldSet } from '@lockit/crypto';
import { sha1Hex, type BreachChecker } from '@/lib/password-strength/breach-check';
import type { StrengthScore } from '@/lib/password-strength/strength-report';
import { lastPasswordChange, oldFromTimes, plainlyRandom, type ItemFacts } from './health-analysis';

/** One item as the page hands it to the worker: ciphertexts and list facts, nothing decrypted. */
export interface HealthItemInput {
  id: string;
  isLogin: boolean;
  createdAt: string;
  updatedAt: string;
  urls: string[];
  hasTotp: boolean;
  /** The password's ciphertext and the field set it was sealed with (undefined: a legacy entry). */
  password: string;
  fieldSet: EntryFieldSet | undefined;
  /** Earlier versions' password ciphertexts, newest first; only for items whose age the times leave open. */
  history?: Array<{ password: string; fieldSet: EntryFieldSet | undefined; savedAt: string; replacedAt: string }>;
}

export interface HealthRequest {
  vaultKey: CryptoKey;
  now: number;
  items: HealthItemInput[];
}

/** Scores a password with zxcvbn (loaded only when some password is not plainly random). */
export type Scorer = (password: string) => Promise<StrengthScore>;

export interface ComputedFacts {
  facts: ItemFacts[];
  /** Each opened password by item id: kept in the worker for the breach check, never posted. */
  passwords: Map<string, string>;
  /** Distinct passwords zxcvbn had to score (the others were plainly random). */
  zxcvbnRuns: number;
}

/** Items opened at once: enough to keep WebCrypto busy, few enough to keep memory flat. */
const SLICE = 1000;

/**
 * The worker's job: opens each item's password under the vault key, scores it (zxcvbn only
 * where `plainlyRandom` cannot vouch for it, once per distinct password) and works out when it
 * was last changed. Returns facts without any password or digest in them: equal passwords
 * share an opaque token that means nothing outside this run. Digests are left to the breach
 * check (digestsOf), which runs after the facts are shown, and only when it is on.
 * An item whose password does not open is left out (the vault shows it as damaged).
 */
export async function computeHealthFacts(request: HealthRequest, scorer: Scorer): Promise<ComputedFacts> {
  const { vaultKey, now } = request;
  const facts: ItemFacts[] = [];
  const passwords = new Map<string, string>();
  const tokens = new Map<string, string>();
  const scores = new Map<string, Promise<StrengthScore | null>>();
  let zxcvbnRuns = 0;

  const scoreOf = (password: string) => {
    let score = scores.get(password);
    if (!score) {
      if (plainlyRandom(password)) score = Promise.resolve(null);
      else {
        zxcvbnRuns++;
        score = scorer(password);
      }
      scores.set(password, score);
    }
    return score;
  };

  const examine = async (item: HealthItemInput): Promise<ItemFacts | null> => {
    let password: string;
    try {
      password = await decryptField(vaultKey, item.id, 'password', item.password, item.fieldSet);
    } catch {
      return null;
    }
    const hasPassword = password !== '';
    let token: string | null = null;
    let score: StrengthScore | null = null;
    if (hasPassword) {
      passwords.set(item.id, password);
      token = tokens.get(password) ?? `p${tokens.size}`;
      tokens.set(password, token);
      score = await scoreOf(password);
    }
    return {
      id: item.id,
      hasPassword,
      isLogin: item.isLogin,
      passwordDigest: token,
      score,
      breachCount: 0,
      urls: item.urls,
      hasTotp: item.hasTotp,
      passwordChangedAt: await changedAt(vaultKey, item, password, now),
    };
  };

  for (let start = 0; start < request.items.length; start += SLICE) {
    const slice = await Promise.all(request.items.slice(start, start + SLICE).map(examine));
    for (const fact of slice) if (fact) facts.push(fact);
  }
  return { facts, passwords, zxcvbnRuns };
}

/** SHA-1 (upper-case hex) of each password by item id, each distinct password digested once. */
export async function digestsOf(passwords: ReadonlyMap<string, string>): Promise<Map<string, string>> {
  const byPassword = new Map<string, Promise<string>>();
  const digests = new Map<string, string>();
  await Promise.all(
    [...passwords].map(async ([id, password]) => {
      let digest = byPassword.get(password);
      if (!digest) byPassword.set(password, (digest = sha1Hex(password)));
      digests.set(id, await digest);
    }),
  );
  return digests;
}

/** When the password was last set: from the times when they settle it, else from the history. */
async function changedAt(vaultKey: CryptoKey, item: HealthItemInput, password: string, now: number): Promise<string> {
  const settled = oldFromTimes(item.createdAt, item.updatedAt, now);
  if (settled === true) return item.updatedAt;
  if (settled === false || !item.history) return item.createdAt;
  const versions: Array<{ password: string; savedAt: string; replacedAt: string }> = [];
  for (const version of item.history) {
    try {
      const old = await decryptField(vaultKey, item.id, 'password', version.password, version.fieldSet);
      versions.push({ password: old, savedAt: version.savedAt, replacedAt: version.replacedAt });
      // The newest differing version settles it: older ones need not be opened.
      if (old !== password) break;
    } catch {
      // A version that does not open says nothing about when the password changed.
    }
  }
  return lastPasswordChange(password, versions, item.createdAt);
}

/**
 * Breach counts by item id: one range request per distinct 5-character prefix (the checker
 * caches ranges for the session). Throws BreachCheckError when the service cannot answer.
 */
export async function computeBreachCounts(
  digests: ReadonlyMap<string, string>,
  checker: BreachChecker,
): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  const entries = [...digests];
  // Six ranges in flight at most: a browser's per-host connection limit.
  let next = 0;
  const worker = async () => {
    while (next < entries.length) {
      const [id, digest] = entries[next++]!;
      const seen = await checker.timesSeen(digest);
      if (seen > 0) counts[id] = seen;
    }
  };
  await Promise.all(Array.from({ length: Math.min(6, entries.length) }, worker));
  return counts;
}
