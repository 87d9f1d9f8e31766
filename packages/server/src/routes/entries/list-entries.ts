import { Readable } from 'node:stream';
import { apiPaths, CHANGE_CURSOR_HEADER } from '@lockit/contract';
import type { RoutePlugin } from '../../app-context';
import { requireSession } from '../../auth/require-session';
import { ifNoneMatchHits } from '../../http/if-none-match';
import { buildListSnapshot } from '../../vault/vault-list-snapshot';
import { createPerAccountSlots } from '../../vault/per-account-slots';
import { sendVaultState } from '../../vault/vault-state';
import { MESSAGES } from '../messages';
import { toEntryWire } from './entry-wire';

/**
 * GET /api/passwords/show/user-passwords: the caller's entries, live and in Trash (with
 * `deletedAt`, so the Trash view needs no second call), oldest first; never history. The answer is
 * serialized once per vault revision (the revision came with the session, before this read)
 * and reused until an entry write bumps it; see vault/vault-list-cache.ts. It is read and
 * serialized a page at a time (vault/vault-list-builder.ts), so a large vault never holds the
 * event loop for long. It carries an ETag of its bytes, and a client that already holds them
 * (If-None-Match) gets a bodiless 304. It carries `x-lockit-vault-state`, the state stored with
 * the vault the body shows (vault/vault-list-snapshot.ts), also on a 304; the ETag covers it.
 * And `x-lockit-change-cursor`, the change cursor the list is at, so a client follows changes
 * from there instead of reading the vault again.
 */
export const listEntriesRoute: RoutePlugin = async (app, { ctx }) => {
  const sending = createPerAccountSlots(LIST_SENDS_PER_ACCOUNT);
  app.get(apiPaths.listEntries, async (request, reply) => {
    const { user } = requireSession(request);
    const answer = await ctx.vaultLists.getOrBuild(user.id, user.vault_revision, () =>
      buildListSnapshot(
        MESSAGES.success,
        {
          userId: user.id,
          vaultState: ctx.repos.vaultState,
          page: (after, limit) => ctx.repos.entries.listPageByUser(user.id, after, limit),
        },
        toEntryWire,
      ),
    );
    reply.header('etag', answer.etag);
    sendVaultState(reply, answer.vaultState);
    // The revision the answer is filed under, read before its entries: the list holds every
    // change up to it, so a client catching up from it misses nothing.
    reply.header(CHANGE_CURSOR_HEADER, String(user.vault_revision));
    if (ifNoneMatchHits(request.headers['if-none-match'], answer.etag)) return reply.code(304).send();
    reply.type('application/json; charset=utf-8').header('content-length', answer.body.length);
    if (answer.body.length <= SLICE_BYTES) return reply.send(answer.body);
    const slot = sending.acquire(user.id);
    // Frees the slot once the answer is sent, or at once if the client leaves while waiting for it.
    reply.raw.once('close', () => void slot.then((release) => release()));
    await slot;
    return reply.send(Readable.from(slices(answer.body)));
  });
};

/** Large list answers of one account sent at once; the account's other requests for it wait. */
const LIST_SENDS_PER_ACCOUNT = 2;

/** Bytes handed to the socket at a time: the event loop serves other requests between slices. */
const SLICE_BYTES = 64 * 1024;

/**
 * A large answer in slices (views, no copies). Written as one 16 MB Buffer, each socket took
 * as much as the kernel would hold in one go, and eight tabs listing a 20,000-entry vault held
 * the event loop for hundreds of milliseconds at a time.
 */
function* slices(body: Buffer): Generator<Buffer> {
  for (let at = 0; at < body.length; at += SLICE_BYTES) yield body.subarray(at, at + SLICE_BYTES);
}
