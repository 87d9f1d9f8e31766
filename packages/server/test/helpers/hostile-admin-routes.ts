import { adminInviteRequestSchema, adminPaths, adminSignInRequestSchema } from '@lockit/contract';
import type { RouteUnderAttack } from './refusal-model';

/** The admin API's routes for the hostile-input suite: none needs the victim's data. */
export const ADMIN_ROUTES_UNDER_ATTACK: readonly RouteUnderAttack[] = [
  {
    name: 'admin-sign-in',
    method: 'POST',
    path: () => adminPaths.signIn,
    hasIdParam: false,
    isPublic: true,
    session: 'admin',
    body: { schema: adminSignInRequestSchema, valid: { token: 'not-the-admin-token-0123456789' } },
  },
  {
    name: 'admin-sign-out',
    method: 'POST',
    path: () => adminPaths.signOut,
    hasIdParam: false,
    isPublic: true,
    session: 'admin',
  },
  {
    name: 'admin-session',
    method: 'GET',
    path: () => adminPaths.session,
    hasIdParam: false,
    isPublic: false,
    session: 'admin',
  },
  {
    name: 'admin-list-users',
    method: 'GET',
    path: () => adminPaths.users,
    hasIdParam: false,
    isPublic: false,
    session: 'admin',
  },
  {
    name: 'admin-diagnostics',
    method: 'GET',
    path: () => adminPaths.diagnostics,
    hasIdParam: false,
    isPublic: false,
    session: 'admin',
  },
  {
    name: 'admin-invite',
    method: 'POST',
    path: () => adminPaths.invites,
    hasIdParam: false,
    isPublic: false,
    session: 'admin',
    body: { schema: adminInviteRequestSchema, valid: { email: 'friend@example.test' } },
  },
  ...(['disable', 'enable', 'end-sessions'] as const).map((action): RouteUnderAttack => ({
    name: `admin-${action}-user`,
    method: 'POST',
    path: (id) => `${adminPaths.user('')}${id}/${action}`,
    hasIdParam: true,
    resource: 'user',
    isPublic: false,
    session: 'admin',
  })),
  {
    name: 'admin-delete-user',
    method: 'DELETE',
    path: (id) => `${adminPaths.user('')}${id}`,
    hasIdParam: true,
    resource: 'user',
    isPublic: false,
    session: 'admin',
  },
];
