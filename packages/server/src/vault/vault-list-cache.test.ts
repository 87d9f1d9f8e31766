import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createVaultListCache } from './vault-list-cache';

describe('vault list cache', () => {
  it('answers only for the revision an answer was stored under', () => {
    const cache = createVaultListCache(1_000);
    cache.set('user-a', 3, Buffer.from('{"a":3}'));
    expect(cache.get('user-a', 3)?.body.toString()).toBe('{"a":3}');
    expect(cache.get('user-a', 4)).toBeUndefined();
    expect(cache.get('user-b', 3)).toBeUndefined();
  });

  it('keeps one answer per user: a newer revision replaces the older', () => {
    const cache = createVaultListCache(1_000);
    cache.set('user-a', 1, Buffer.from('x'.repeat(10)));
    cache.set('user-a', 2, Buffer.from('y'.repeat(20)));
    expect(cache.get('user-a', 1)).toBeUndefined();
    expect(cache.get('user-a', 2)?.body.toString()).toBe('y'.repeat(20));
    expect(cache.size).toBe(20);
  });

  it('drops the least recently read answers once over its size', () => {
    const cache = createVaultListCache(100);
    cache.set('a', 1, Buffer.from('a'.repeat(25)));
    cache.set('b', 1, Buffer.from('b'.repeat(25)));
    cache.set('c', 1, Buffer.from('c'.repeat(25)));
    expect(cache.get('a', 1)).toBeDefined(); // a is now the most recent; b the oldest
    cache.set('d', 1, Buffer.from('d'.repeat(25)));
    cache.set('e', 1, Buffer.from('e'.repeat(25)));
    expect(cache.get('b', 1)).toBeUndefined();
    expect(cache.get('a', 1)).toBeDefined();
    expect(cache.get('e', 1)).toBeDefined();
    expect(cache.size).toBeLessThanOrEqual(100);
  });

  it('keeps the list of a 10,000-item vault (about 9.3 MB) at the default size', () => {
    const cache = createVaultListCache();
    const body = Buffer.alloc(9_500_000, 0x61);
    cache.set('big', 1, body);
    expect(cache.get('big', 1)?.body).toBe(body);
    expect(cache.size).toBe(body.length);
  });

  it('tags an answer with the SHA-256 of its bytes, whoever it belongs to', () => {
    const cache = createVaultListCache(1_000);
    const a = cache.set('user-a', 1, Buffer.from('{"data":[]}'));
    const b = cache.set('user-b', 7, Buffer.from('{"data":[]}'));
    const c = cache.set('user-c', 1, Buffer.from('{"data":[1]}'));
    expect(a.etag).toBe('"' + createHash('sha256').update('{"data":[]}').digest('base64url') + '"');
    expect(b.etag).toBe(a.etag);
    expect(c.etag).not.toBe(a.etag);
    expect(cache.get('user-a', 1)?.etag).toBe(a.etag);
  });

  it('keeps the vault state with an answer and folds it into the ETag: same bytes, other state, other tag', async () => {
    const cache = createVaultListCache(1_000);
    const body = Buffer.from('{"data":[]}');
    const plain = cache.set('user-a', 1, body);
    const one = cache.set('user-a', 2, body, 'v1.1.0.0.s.t');
    const two = await cache.getOrBuild('user-a', 3, async () => ({
      body,
      sha256: createHash('sha256').update(body).digest('base64url'),
      vaultState: 'v1.2.0.1.s.t',
    }));
    expect([plain.vaultState, one.vaultState, two.vaultState]).toEqual([null, 'v1.1.0.0.s.t', 'v1.2.0.1.s.t']);
    expect(new Set([plain.etag, one.etag, two.etag]).size).toBe(3);
    expect(cache.get('user-a', 3)).toBe(two);
  });

  it('does not keep one answer larger than half its size', () => {
    const cache = createVaultListCache(100);
    cache.set('small', 1, Buffer.from('s'.repeat(20)));
    cache.set('huge', 1, Buffer.from('h'.repeat(51)));
    expect(cache.get('huge', 1)).toBeUndefined();
    expect(cache.get('small', 1)).toBeDefined();
  });

  it('keeps the list of a 20,000-item vault (about 16 MB) at the default size', () => {
    const cache = createVaultListCache();
    const body = Buffer.alloc(16_000_000, 0x61);
    cache.set('big', 1, body);
    expect(cache.get('big', 1)?.body).toBe(body);
  });

  it('builds a missing answer once for concurrent requests, keeps it, and tags it with the SHA-256 of its bytes', async () => {
    const cache = createVaultListCache(1_000);
    let builds = 0;
    const build = async () => {
      builds += 1;
      await new Promise((resolve) => setTimeout(resolve, 10));
      const body = Buffer.from('{"data":[1]}');
      return { body, sha256: createHash('sha256').update(body).digest('base64url') };
    };
    const answers = await Promise.all([1, 2, 3].map(() => cache.getOrBuild('user-a', 4, build)));
    expect(builds).toBe(1);
    expect(new Set(answers).size).toBe(1);
    expect(answers[0]!.etag).toBe(cache.set('user-b', 1, Buffer.from('{"data":[1]}')).etag);
    expect(await cache.getOrBuild('user-a', 4, build)).toBe(answers[0]);
    expect(builds).toBe(1);
    await cache.getOrBuild('user-a', 5, build); // a new revision builds again
    expect(builds).toBe(2);
  });

  it('a failed build is not kept: the next request builds again', async () => {
    const cache = createVaultListCache(1_000);
    await expect(cache.getOrBuild('user-a', 1, () => Promise.reject(new Error('database away')))).rejects.toThrow(
      'database away',
    );
    const body = Buffer.from('{}');
    const answer = await cache.getOrBuild('user-a', 1, async () => ({
      body,
      sha256: createHash('sha256').update(body).digest('base64url'),
    }));
    expect(answer.body).toBe(body);
  });
});
