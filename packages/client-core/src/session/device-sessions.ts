import type { DeviceSession } from '@lockit/contract';
import type { ApiClient } from '../http/api-client';

/**
 * The account's sessions (devices), this device's own marked `current`. What a server says
 * here is only shown, never trusted for a decision: ending a session is the server's to do.
 */
export async function listSessions(api: ApiClient): Promise<DeviceSession[]> {
  return (await api.call('list-sessions', {})).data;
}

/** Ends one other session: that device is signed out at its next request. Resolves with the server's message. */
export async function endSession(api: ApiClient, id: string): Promise<string> {
  return (await api.call('end-session', { params: { id } })).message;
}

/** Ends every session of the account but this device's; resolves with how many ended. */
export async function endOtherSessions(api: ApiClient): Promise<number> {
  return (await api.call('end-other-sessions', {})).data.ended;
}

/**
 * Ends this device's session: the server clears its cookies (or revokes its token) and the next
 * request is refused. The caller locks first: whatever the server answers, a locked vault is
 * safe. Resolves with the server's message.
 */
export async function logOut(api: ApiClient): Promise<string> {
  return (await api.call('logout', {})).message;
}
