import type { OpenEntry } from '@lockit/client-core';
import type { FrameFill } from '../page/fill-in-frame';
import { totpCode } from './totp-code';
import type { VaultSession } from './vault-session';

/** The item types a fill can put into a page. */
export function isFillable(entry: Pick<OpenEntry, 'type'>): boolean {
  return entry.type === 'login' || entry.type === 'card';
}

/**
 * What a fill of the item `id` puts into a page, its secrets opened now for this one fill: a
 * login with its one-time code of this moment (null without a TOTP seed, or with one that
 * cannot be read: the login still fills), or a card. Other types are not filled.
 */
export async function fillFor(
  session: VaultSession,
  id: string,
  now = Date.now(),
): Promise<{ entry: OpenEntry; fill: FrameFill }> {
  const { entry, password, totp, card } = await session.secrets(id);
  if (entry.type === 'card') {
    const month = entry.card?.expMonth ?? '';
    const year = entry.card?.expYear ?? '';
    return {
      entry,
      fill: {
        kind: 'card',
        number: (card?.number ?? '').replace(/[\s-]/g, ''),
        holder: entry.card?.holder ?? '',
        expMonth: month === '' ? '' : month.padStart(2, '0'),
        // A two-digit year is this century's.
        expYear: year.length === 2 ? `20${year}` : year,
        code: card?.code ?? '',
      },
    };
  }
  if (entry.type !== 'login') throw new Error('Only logins and cards are filled.');
  let code: string | null = null;
  if (totp !== null && totp !== '') {
    try {
      code = totpCode(totp, now);
    } catch {
      code = null;
    }
  }
  return { entry, fill: { kind: 'login', username: entry.username, password, code } };
}
