import { apiPaths, CHANGE_CURSOR_HEADER, parseChangeCursor, VAULT_STATE_HEADER } from '@lockit/contract';
import { apiExchange } from '@/lib/api-client';
import type { ResponseSchema } from '@/lib/contract';

/**
 * Only the envelope is checked here; each entry is checked against the contract's
 * entrySchema while it is decrypted (lib/open-entries.ts), so one malformed entry shows as
 * damaged instead of hiding the whole vault, and 10,000 entries are not validated in one
 * long task.
 */
const listEnvelopeSchema: ResponseSchema<{ message: string; data: unknown[] }> = {
  safeParse(body: unknown) {
    if (typeof body !== 'object' || body === null) return { success: false };
    const { message, data } = body as Record<string, unknown>;
    if (typeof message !== 'string' || !Array.isArray(data)) return { success: false };
    return { success: true, data: { message, data: data as unknown[] } };
  },
};

/**
 * The vault state header each list answer carried, by the list it returned: a list fetched at
 * sign-in and held for the vault (keyring.holdPrefetchedList) keeps the state it came with
 * without every holder of the list passing it along.
 */
const servedStates = new WeakMap<readonly unknown[], string | null>();
/** The change cursor each list answer carried, the same way. */
const servedCursors = new WeakMap<readonly unknown[], number | null>();

/** GET /api/passwords/show/user-passwords: every entry of the session's account, oldest first. */
export async function listEntries(): Promise<unknown[]> {
  const answer = await apiExchange(apiPaths.listEntries, { method: 'GET', schema: listEnvelopeSchema, protectedCall: true });
  servedStates.set(answer.data.data, answer.headers.get(VAULT_STATE_HEADER));
  servedCursors.set(answer.data.data, parseChangeCursor(answer.headers.get(CHANGE_CURSOR_HEADER)));
  return answer.data.data;
}

/** Files `state` as the one `list` was served with (a list read from the offline copy). */
export function rememberServedList(list: readonly unknown[], state: string | null): void {
  servedStates.set(list, state);
}

/**
 * The vault state (decision 0053) the server sent with `list` (null: none, the header was
 * absent), or undefined when `list` is not an answer of listEntries. Untrusted until checked
 * (features/vault/integrity).
 */
export function servedVaultStateOf(list: readonly unknown[]): string | null | undefined {
  return servedStates.get(list);
}

/**
 * The change cursor the server sent with `list` (null: none, or not a cursor; undefined: not an
 * answer of listEntries). Live sync follows changes from it once the list passed its check.
 */
export function servedChangeCursorOf(list: readonly unknown[]): number | null | undefined {
  return servedCursors.get(list);
}
