import type { VaultChangesWire } from '@lockit/contract';
import type { ApiClient } from '../../http/api-client';

/**
 * GET /api/vault/changes?since=N through the core's API client (decision 0066): the answer is
 * checked against the route table's schema before anyone reads it. 0 asks for the whole vault.
 */
export async function changesSince(api: Pick<ApiClient, 'call'>, cursor: number): Promise<VaultChangesWire> {
  const answer = await api.call('vault-changes', { query: { since: String(cursor) } });
  return answer.data;
}
