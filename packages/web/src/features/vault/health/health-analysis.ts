import type { StrengthScore } from '@/lib/password-strength/strength-report';

/**
 * The vault health report's rules, as pure functions over facts the worker has established
 * (compute-health.ts decrypts, hashes and scores; nothing here sees a key). Kept apart so each
 * rule is tested directly.
 */

export const HEALTH_CATEGORIES = ['breached', 'weak', 'reused', 'insecureUrl', 'old', 'noTotp'] as const;
export type HealthCategory = (typeof HEALTH_CATEGORIES)[number];

export const CATEGORY_TITLES: Record<HealthCategory, string> = {
  breached: 'Breached passwords',
  weak: 'Weak passwords',
  reused: 'Reused passwords',
  insecureUrl: 'Web addresses without HTTPS',
  old: 'Passwords unchanged for over a year',
  noTotp: 'Logins without a TOTP seed',
};

/** What one item weighs against the score, per problem: a breached or weak password sinks it. */
const WEIGHTS: Record<HealthCategory, number> = {
  breached: 1,
  weak: 1,
  reused: 0.75,
  insecureUrl: 0.5,
  old: 0.25,
  noTotp: 0.1,
};

/** A weak password: zxcvbn score 2 or less (resists online guessing only). */
export const WEAK_MAX_SCORE: StrengthScore = 2;

export const YEAR_MS = 365 * 24 * 60 * 60 * 1000;

/** Keyboard rows (US layout, unshifted), for walks such as "1qaz2wsx" or "asdf". */
const KEY_ROWS = ['`1234567890-=', 'qwertyuiop[]\\', "asdfghjkl;'", 'zxcvbnm,./'];
const UNSHIFTED: Record<string, string> = Object.fromEntries(
  [...'~!@#$%^&*()_+{}|:"<>?'].map((shifted, i) => [shifted, "`1234567890-=[]\\;',./"[i]!]),
);
const KEY_POSITIONS = new Map<string, readonly [number, number]>();
KEY_ROWS.forEach((row, r) => [...row].forEach((key, c) => KEY_POSITIONS.set(key, [r, c])));
const keyOf = (char: string) => KEY_POSITIONS.get(UNSHIFTED[char] ?? char.toLowerCase());

/** Two characters a person types one after the other without thinking: neighbours in the alphabet, on the keyboard, or the same letter. */
function structuredPair(a: string, b: string): boolean {
  if (Math.abs(b.codePointAt(0)! - a.codePointAt(0)!) <= 1 || a.toLowerCase() === b.toLowerCase()) return true;
  const p = keyOf(a);
  const q = keyOf(b);
  if (!p || !q) return false;
  const [dr, dc] = [q[0] - p[0], q[1] - p[1]];
  return (dr === 0 && Math.abs(dc) === 1) || (dr === 1 && (dc === 0 || dc === -1)) || (dr === -1 && (dc === 0 || dc === 1));
}

/**
 * A cheap test that stands in for zxcvbn on passwords that are plainly random: 16 or more
 * characters, at least 60 % of them distinct (repeats fail), at most half of neighbouring
 * pairs "structured" (keyboard or alphabet neighbours: walks such as
 * "1qaz2wsx" and sequences fail), and either three character classes, or, from 20
 * characters, upper and lower case letters whose case flips often (camel-cased words such
 * as "MonkeyDragonSunshine" fail). zxcvbn costs 2-50 ms on such a password (its l33t and
 * dictionary search grows with length), so 10,000 would take minutes; the tests hold this
 * test to zxcvbn's verdict on random passwords and on passwords built to fool it.
 * Everything that fails it goes to zxcvbn.
 */
export function plainlyRandom(password: string): boolean {
  const chars = [...password];
  if (chars.length < 16) return false;
  if (new Set(chars).size < Math.ceil(chars.length * 0.6)) return false;
  let structured = 0;
  for (let i = 1; i < chars.length; i++) {
    if (structuredPair(chars[i - 1]!, chars[i]!)) structured++;
  }
  if (structured > (chars.length - 1) * 0.5) return false;
  const lower = /[a-z]/.test(password);
  const upper = /[A-Z]/.test(password);
  const classes = Number(lower) + Number(upper) + Number(/[0-9]/.test(password)) + Number(/[^a-zA-Z0-9]/.test(password));
  if (classes >= 3) return true;
  return chars.length >= 20 && lower && upper && caseFlips(chars) >= 0.3;
}

/** Of neighbouring letter pairs, the share that change case ("aB", "Cd"). */
function caseFlips(chars: readonly string[]): number {
  let pairs = 0;
  let flips = 0;
  for (let i = 1; i < chars.length; i++) {
    const [a, b] = [chars[i - 1]!, chars[i]!];
    if (!/[a-zA-Z]/.test(a) || !/[a-zA-Z]/.test(b)) continue;
    pairs++;
    if ((a === a.toUpperCase()) !== (b === b.toUpperCase())) flips++;
  }
  return pairs === 0 ? 0 : flips / pairs;
}

/** What the worker knows of one item once its password is open (the password itself is gone). */
export interface ItemFacts {
  id: string;
  /** Whether the item has a password at all (notes, cards and identities have none). */
  hasPassword: boolean;
  isLogin: boolean;
  /** A digest of the password (SHA-1 hex), only to group equal ones: never the password. */
  passwordDigest: string | null;
  /** zxcvbn's score, or null when `plainlyRandom` proved it strong without zxcvbn. */
  score: StrengthScore | null;
  /** Times seen in known breaches (0 when not, or when the check is off). */
  breachCount: number;
  urls: readonly string[];
  hasTotp: boolean;
  /** When the password was last set (ISO time). */
  passwordChangedAt: string;
}

export interface ItemFindings {
  id: string;
  categories: HealthCategory[];
  breachCount: number;
  score: StrengthScore | null;
  /** Index into `reusedGroups`, or null. */
  reusedGroup: number | null;
  insecureUrls: string[];
  passwordChangedAt: string;
}

export interface HealthReport {
  /** 0-100: 100 when no counted item has a problem. */
  score: number;
  /** Items the report looked at (excluded ones are not counted). */
  checked: number;
  counts: Record<HealthCategory, number>;
  /** Only items with at least one problem, in input order. */
  findings: ItemFindings[];
  /** Groups of item ids sharing one password, largest first. */
  reusedGroups: string[][];
  /** Whether breached passwords were looked for (the person opted in and the server allows it). */
  breachChecked: boolean;
}

/** An http:// address: the page (and what is typed into it) travels in the clear. */
export function insecureUrlsOf(urls: readonly string[]): string[] {
  return urls.filter((url) => /^http:\/\//i.test(url.trim()));
}

/**
 * Whether the creation and update times alone settle "unchanged for over a year": an item not
 * written for a year cannot have had its password changed; one created within the year is
 * not old. Otherwise (`undefined`) the history decides.
 */
export function oldFromTimes(createdAt: string, updatedAt: string, now: number): boolean | undefined {
  if (Date.parse(updatedAt) < now - YEAR_MS) return true;
  if (Date.parse(createdAt) >= now - YEAR_MS) return false;
  return undefined;
}

/**
 * When the current password was set, from the item's earlier passwords (newest version first,
 * each with the time a later save replaced it): the replacement time of the newest version
 * whose password differs. If every kept version has the same password, it was set no later
 * than the oldest kept version was saved (the creation, unless the history was trimmed).
 */
export function lastPasswordChange(
  current: string,
  versions: ReadonlyArray<{ password: string; savedAt: string; replacedAt: string }>,
  createdAt: string,
): string {
  for (const version of versions) if (version.password !== current) return version.replacedAt;
  return versions.at(-1)?.savedAt ?? createdAt;
}

/** Groups of ids whose digests are equal (two or more), largest first. */
export function reusedGroupsOf(items: ReadonlyArray<Pick<ItemFacts, 'id' | 'passwordDigest'>>): string[][] {
  const byDigest = new Map<string, string[]>();
  for (const item of items) {
    if (item.passwordDigest === null) continue;
    const group = byDigest.get(item.passwordDigest);
    if (group) group.push(item.id);
    else byDigest.set(item.passwordDigest, [item.id]);
  }
  return [...byDigest.values()].filter((group) => group.length > 1).sort((a, b) => b.length - a.length);
}

/** The report over every item not excluded. */
export function buildReport(
  items: readonly ItemFacts[],
  { now, excluded = new Set<string>(), breachChecked }: { now: number; excluded?: ReadonlySet<string>; breachChecked: boolean },
): HealthReport {
  const counted = items.filter((item) => !excluded.has(item.id) && (item.hasPassword || item.urls.length > 0));
  const reusedGroups = reusedGroupsOf(counted);
  const groupOf = new Map<string, number>();
  reusedGroups.forEach((group, index) => group.forEach((id) => groupOf.set(id, index)));

  const counts = Object.fromEntries(HEALTH_CATEGORIES.map((category) => [category, 0])) as Record<HealthCategory, number>;
  const findings: ItemFindings[] = [];
  let health = 0;
  for (const item of counted) {
    const categories: HealthCategory[] = [];
    if (item.breachCount > 0) categories.push('breached');
    if (item.hasPassword && item.score !== null && item.score <= WEAK_MAX_SCORE) categories.push('weak');
    const reusedGroup = groupOf.get(item.id) ?? null;
    if (reusedGroup !== null) categories.push('reused');
    const insecureUrls = insecureUrlsOf(item.urls);
    if (insecureUrls.length > 0) categories.push('insecureUrl');
    if (item.hasPassword && Date.parse(item.passwordChangedAt) < now - YEAR_MS) categories.push('old');
    if (item.isLogin && item.hasPassword && !item.hasTotp) categories.push('noTotp');

    for (const category of categories) counts[category] += 1;
    health +=
      1 -
      Math.min(
        1,
        categories.reduce((sum, category) => sum + WEIGHTS[category], 0),
      );
    if (categories.length > 0) {
      findings.push({
        id: item.id,
        categories,
        breachCount: item.breachCount,
        score: item.score,
        reusedGroup,
        insecureUrls,
        passwordChangedAt: item.passwordChangedAt,
      });
    }
  }
  const score = counted.length === 0 ? 100 : Math.round((100 * health) / counted.length);
  return { score, checked: counted.length, counts, findings, reusedGroups, breachChecked };
}
