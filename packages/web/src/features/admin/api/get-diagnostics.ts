import { adminDiagnosticsResponseSchema, adminPaths } from '@lockit/contract';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** GET /api/admin/diagnostics: one text block for a bug report, with no secret in it. */
export async function getDiagnostics(): Promise<string> {
  return (await apiRequest(adminPaths.diagnostics, { method: 'GET', schema: adminDiagnosticsResponseSchema })).data.text;
}

export function useDiagnostics() {
  return useQuery({ queryKey: ['admin', 'diagnostics'], queryFn: getDiagnostics, retry: false });
}
