import type { DeviceSession } from '@lockit/contract';

/** "Chrome 156 on Linux"; the server reads these from the User-Agent, so they describe, not prove. */
export function deviceName(session: Pick<DeviceSession, 'browser' | 'system'>): string {
  if (session.browser && session.system) return `${session.browser} on ${session.system}`;
  return session.browser ?? session.system ?? 'Unknown device';
}
