import { describe, expect, it } from 'vitest';
import { apiPaths } from './paths';

describe('apiPaths', () => {
  it('are the paths of the spec catalogue, letter for letter', () => {
    expect({
      refreshToken: apiPaths.refreshToken,
      login: apiPaths.login,
      createUser: apiPaths.createUser,
      sendCode: apiPaths.sendCode,
      verifyCode: apiPaths.verifyCode,
      profile: apiPaths.profile,
      verifySession: apiPaths.verifySession,
      listEntries: apiPaths.listEntries,
      addEntry: apiPaths.addEntry,
      logout: apiPaths.logout,
      updateUsername: apiPaths.updateUsername,
      changePassword: apiPaths.changePassword,
      deleteAccount: apiPaths.deleteAccount,
    }).toEqual({
      refreshToken: '/api/users/refresh-token',
      login: '/api/users/login',
      createUser: '/api/users/create',
      sendCode: '/api/email/send-code',
      verifyCode: '/api/email/verify-code',
      profile: '/api/user/profile',
      verifySession: '/api/users/verify',
      listEntries: '/api/passwords/show/user-passwords',
      addEntry: '/api/passwords/add',
      logout: '/api/users/logout',
      updateUsername: '/api/users/update-username',
      changePassword: '/api/users/change-password',
      deleteAccount: '/api/users/delete-account',
    });
  });

  it('put the entry id last in update and delete paths', () => {
    const id = '0f8fad5b-d9cb-469f-a165-70867728950e';
    expect(apiPaths.updateEntry(id)).toBe(`/api/passwords/update-password/${id}`);
    expect(apiPaths.deleteEntry(id)).toBe(`/api/passwords/delete/${id}`);
  });

  it('encode an id, so a hostile one cannot reach another path', () => {
    expect(apiPaths.deleteEntry('../../users/delete-account')).toBe('/api/passwords/delete/..%2F..%2Fusers%2Fdelete-account');
    expect(apiPaths.updateEntry('a?b#c')).toBe('/api/passwords/update-password/a%3Fb%23c');
  });

  it("keep Lockit's own calls beside the spec's, under the same areas", () => {
    expect(apiPaths.prelogin).toBe('/api/users/prelogin');
    expect(apiPaths.keyMaterial).toBe('/api/user/key-material');
  });

  it('name every path once', () => {
    const fixed = Object.values(apiPaths).map((path) => (typeof path === 'function' ? path(':id') : path));
    expect(new Set(fixed).size).toBe(fixed.length);
  });
});
