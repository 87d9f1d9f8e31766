import { adminPaths } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { logAdminAction } from '../../admin/admin-log';
import { collectDiagnostics, formatDiagnostics } from '../../admin/diagnostics';
import { ADMIN_MESSAGES } from './admin-messages';
import { adminOnly } from './admin-http';

/** GET /api/admin/diagnostics: one text block for a bug report, with no secret in it. */
export const getDiagnosticsRoute: RoutePlugin = async (app, { ctx }) => {
  const admin = ctx.admin;
  if (!admin) return;
  app.get(adminPaths.diagnostics, adminOnly(admin), async (request) => {
    const diagnostics = await collectDiagnostics({ ...ctx, redisStatus: admin.redisStatus, uptimeSeconds: process.uptime() });
    logAdminAction(request.log, 'diagnostics', { via: 'api', ip: request.ip });
    return { message: ADMIN_MESSAGES.ok, data: { text: formatDiagnostics(diagnostics) } };
  });
};
