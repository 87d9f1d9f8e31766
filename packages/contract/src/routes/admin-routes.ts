import {
  adminDiagnosticsResponseSchema,
  adminEndSessionsResponseSchema,
  adminInviteRequestSchema,
  adminInviteResponseSchema,
  adminPaths,
  adminSessionResponseSchema,
  adminSignInRequestSchema,
  adminUserResponseSchema,
  adminUsersResponseSchema,
} from '../admin';
import { messageResponseSchema } from '../common';
import { adminUserIdParamsSchema } from '../route-params';
import { routes } from './route-entry';

/**
 * The admin API: the server registers it only with ADMIN_TOKEN set (else each path is a 404).
 * Sign-in and sign-out need no admin session; every other route does.
 */
export const adminRoutes = routes([
  {
    name: 'admin-sign-in',
    method: 'POST',
    path: adminPaths.signIn,
    access: 'public',
    summary: 'Opens an admin session with the admin token.',
    body: adminSignInRequestSchema,
    responses: { 200: adminSessionResponseSchema },
  },
  {
    name: 'admin-sign-out',
    method: 'POST',
    path: adminPaths.signOut,
    access: 'public',
    summary: 'Ends the admin session of this cookie, if any.',
    responses: { 200: messageResponseSchema },
  },
  {
    name: 'admin-session',
    method: 'GET',
    path: adminPaths.session,
    access: 'admin',
    summary: "The admin session's limits.",
    responses: { 200: adminSessionResponseSchema },
  },
  {
    name: 'admin-list-users',
    method: 'GET',
    path: adminPaths.users,
    access: 'admin',
    summary: 'Every account, without anything of its vault.',
    responses: { 200: adminUsersResponseSchema },
  },
  {
    name: 'admin-invite',
    method: 'POST',
    path: adminPaths.invites,
    access: 'admin',
    summary: 'Makes an invitation link, mailed when an address is given.',
    body: adminInviteRequestSchema,
    responses: { 200: adminInviteResponseSchema },
  },
  {
    name: 'admin-disable-user',
    method: 'POST',
    path: `${adminPaths.user('')}:id/disable`,
    access: 'admin',
    summary: 'Disables an account and ends its sessions.',
    params: adminUserIdParamsSchema,
    responses: { 200: adminUserResponseSchema },
  },
  {
    name: 'admin-enable-user',
    method: 'POST',
    path: `${adminPaths.user('')}:id/enable`,
    access: 'admin',
    summary: 'Enables a disabled account.',
    params: adminUserIdParamsSchema,
    responses: { 200: adminUserResponseSchema },
  },
  {
    name: 'admin-end-user-sessions',
    method: 'POST',
    path: `${adminPaths.user('')}:id/end-sessions`,
    access: 'admin',
    summary: 'Ends every session of an account.',
    params: adminUserIdParamsSchema,
    responses: { 200: adminEndSessionsResponseSchema },
  },
  {
    name: 'admin-delete-user',
    method: 'DELETE',
    path: `${adminPaths.user('')}:id`,
    access: 'admin',
    summary: 'Deletes an account and everything of it.',
    params: adminUserIdParamsSchema,
    responses: { 200: messageResponseSchema },
  },
  {
    name: 'admin-diagnostics',
    method: 'GET',
    path: adminPaths.diagnostics,
    access: 'admin',
    summary: "The server's diagnostics as text, with no secrets.",
    responses: { 200: adminDiagnosticsResponseSchema },
  },
]);
