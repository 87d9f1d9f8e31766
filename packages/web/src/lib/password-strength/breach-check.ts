/**
 * The breach check: Have I Been Pwned's k-anonymity range API (or an operator's mirror of it).
 * For a password, its SHA-1 in upper-case hex; only the first 5 characters go to
 * `{base}/range/{prefix}`, which answers with every known suffix of that range (`SUFFIX:COUNT`
 * lines), padded with fake lines of count 0 (`Add-Padding: true`) so the answer's size does
 * not give the range away. The match is made here, in the browser.
 *
 * Privacy trade-off (said to the person where they opt in): the service learns that someone at
 * this address asked about a range of about 800 breached passwords, never which password, nor
 * whether it is in the list.
 */

export const BREACH_PRIVACY_SENTENCE =
  'Only the first 5 characters of each password\u2019s SHA-1 hash are sent to Have I Been Pwned (or your server\u2019s mirror), which learns that someone at your address asked about a range of hashes, never the password nor whether it is breached.';

/** Upper-case hex SHA-1 of the password's UTF-8 bytes. */
export async function sha1Hex(password: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-1', new TextEncoder().encode(password));
  return [...new Uint8Array(digest)]
    .map((byte) => byte.toString(16).padStart(2, '0'))
    .join('')
    .toUpperCase();
}

/** The range answer as suffix -> count; padding lines (count 0) and malformed lines are dropped. */
export function parseRange(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = /^([0-9A-Fa-f]{35}):(\d+)\s*$/.exec(line.trim());
    if (!match) continue;
    const count = Number(match[2]);
    if (count > 0) counts.set(match[1]!.toUpperCase(), count);
  }
  return counts;
}

export class BreachCheckError extends Error {
  override readonly name = 'BreachCheckError';
}

type Fetch = (url: string, init: RequestInit) => Promise<Response>;

/**
 * Asks the range API at most once per distinct prefix and keeps the answers for the life of
 * this object (the tab's session: nothing is stored). A failed range is forgotten, so a later
 * check may ask again.
 */
export class BreachChecker {
  private readonly ranges = new Map<string, Promise<Map<string, number>>>();
  /** How many range requests went out: at most one per distinct prefix. */
  requests = 0;

  constructor(
    readonly baseUrl: string,
    private readonly fetchRange: Fetch = (url, init) => fetch(url, init),
  ) {}

  /** How many times the password with this SHA-1 (upper-case hex) appears in known breaches; 0 if none. */
  async timesSeen(sha1: string): Promise<number> {
    const prefix = sha1.slice(0, 5);
    return (await this.range(prefix)).get(sha1.slice(5)) ?? 0;
  }

  private range(prefix: string): Promise<Map<string, number>> {
    let answer = this.ranges.get(prefix);
    if (!answer) {
      answer = this.download(prefix);
      this.ranges.set(prefix, answer);
      answer.catch(() => this.ranges.delete(prefix));
    }
    return answer;
  }

  private async download(prefix: string): Promise<Map<string, number>> {
    this.requests += 1;
    let response: Response;
    try {
      response = await this.fetchRange(`${this.baseUrl}/range/${prefix}`, {
        headers: { 'Add-Padding': 'true' },
        credentials: 'omit',
        referrerPolicy: 'no-referrer',
      });
    } catch {
      throw new BreachCheckError('The breach check service could not be reached.');
    }
    if (!response.ok) throw new BreachCheckError(`The breach check service answered ${response.status}.`);
    return parseRange(await response.text());
  }
}

const checkers = new Map<string, BreachChecker>();

/** One checker per base URL for this page's life: the session cache of range answers. */
export function breachCheckerFor(baseUrl: string): BreachChecker {
  let checker = checkers.get(baseUrl);
  if (!checker) {
    checker = new BreachChecker(baseUrl);
    checkers.set(baseUrl, checker);
  }
  return checker;
}
