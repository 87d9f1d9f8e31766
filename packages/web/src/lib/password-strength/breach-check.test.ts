import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPwnedStandIn, type PwnedStandIn } from '@lockit/test-support/pwned-stand-in';
import { BreachChecker, BreachCheckError, parseRange, sha1Hex } from './breach-check';

let standIn: PwnedStandIn;
beforeAll(async () => {
  standIn = await startPwnedStandIn({ password: 9_659_365, hunter2: 17_043 });
});
afterAll(() => standIn.close());

describe('breach check', () => {
  it('digests with SHA-1 in upper-case hex', async () => {
    expect(await sha1Hex('password')).toBe('5BAA61E4C9B93F3F0682250B6CF8331B7EE68FD8');
  });

  it('reads SUFFIX:COUNT lines and drops padding (count 0) and malformed lines', () => {
    const range = parseRange('1E4C9B93F3F0682250B6CF8331B7EE68FD8:3\r\n0000000000000000000000000000000000A:0\r\nnonsense\r\n');
    expect([...range]).toEqual([['1E4C9B93F3F0682250B6CF8331B7EE68FD8', 3]]);
  });

  it('finds breached passwords through the range API, asking with padding, and clean ones as 0', async () => {
    const checker = new BreachChecker(standIn.url);
    expect(await checker.timesSeen(await sha1Hex('password'))).toBe(9_659_365);
    expect(await checker.timesSeen(await sha1Hex('hunter2'))).toBe(17_043);
    expect(await checker.timesSeen(await sha1Hex('a quiet violet orchard'))).toBe(0);
  });

  it('sends only the 5-character prefix, and asks once per prefix for the session', async () => {
    const checker = new BreachChecker(standIn.url);
    const before = standIn.requests.length;
    const digest = await sha1Hex('password');
    await Promise.all([checker.timesSeen(digest), checker.timesSeen(digest), checker.timesSeen(digest)]);
    await checker.timesSeen(digest);
    expect(standIn.requests.slice(before)).toEqual([`/range/${digest.slice(0, 5)}`]);
    expect(checker.requests).toBe(1);
  });

  it('says the service could not answer, and asks again next time', async () => {
    const checker = new BreachChecker(`${standIn.url}/missing`);
    const digest = await sha1Hex('password');
    await expect(checker.timesSeen(digest)).rejects.toThrow(BreachCheckError);
    await expect(checker.timesSeen(digest)).rejects.toThrow('The breach check service answered 404.');
    expect(checker.requests).toBe(2);
  });
});
