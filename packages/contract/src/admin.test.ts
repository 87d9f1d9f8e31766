import { describe, expect, it } from 'vitest';
import { ADMIN_API_PREFIX, adminPaths, adminSignInRequestSchema, adminUserSchema, formatBytes } from './admin';
import { apiPaths } from './paths';

describe('adminPaths', () => {
  const all = Object.values(adminPaths).map((path) => (typeof path === 'function' ? path(':id') : path));

  it('all live under the admin prefix (the admin cookie is sent there and nowhere else), each once', () => {
    expect(all.every((path) => path.startsWith(`${ADMIN_API_PREFIX}/`))).toBe(true);
    expect(new Set(all).size).toBe(all.length);
    const userPaths = Object.values(apiPaths).map((path) => (typeof path === 'function' ? path(':id') : path));
    expect(userPaths.some((path) => path.startsWith(ADMIN_API_PREFIX))).toBe(false);
  });

  it('encode a user id, so a hostile one cannot reach another path', () => {
    expect(adminPaths.disableUser('../sign-out')).toBe('/api/admin/users/..%2Fsign-out/disable');
    expect(adminPaths.user('a?b#c')).toBe('/api/admin/users/a%3Fb%23c');
  });
});

describe('admin schemas', () => {
  it('bound the token a sign-in may send', () => {
    expect(adminSignInRequestSchema.safeParse({ token: 'x'.repeat(512) }).success).toBe(true);
    expect(adminSignInRequestSchema.safeParse({ token: 'x'.repeat(513) }).success).toBe(false);
    expect(adminSignInRequestSchema.safeParse({ token: '' }).success).toBe(false);
  });

  it('describe a user by identity, state and counts only: unknown fields are dropped', () => {
    const parsed = adminUserSchema.parse({
      id: '0f8fad5b-d9cb-469f-a165-70867728950e',
      username: 'alice',
      email: 'alice@example.com',
      createdAt: '2026-11-01T10:00:00.000Z',
      lastSeenAt: null,
      verified: true,
      disabled: false,
      items: 3,
      bytes: 900,
      twoFactor: 'totp',
      protectedKey: 'v1.secret',
    });
    expect(Object.keys(parsed)).not.toContain('protectedKey');
  });
});

describe('formatBytes', () => {
  it('gives bytes under 1 KiB as they are, and larger sizes in binary units to one decimal', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1024)).toBe('1.0 KiB');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(5 * 1024 ** 2)).toBe('5.0 MiB');
    expect(formatBytes(2048 * 1024 ** 4)).toBe('2048.0 TiB');
  });
});
