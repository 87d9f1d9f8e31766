import type { AppContext } from '../app-context';
import type { Executor } from '../db/schema';
import { HttpError } from '../http/http-error';

type QuotaContext = Pick<AppContext, 'repos' | 'config'>;

const MEGABYTE = 1024 * 1024;
const megabytes = (bytes: number) => `${Math.ceil(bytes / MEGABYTE).toLocaleString('en-US')} MB`;

/**
 * Refuses (413, "This vault is full: ...") a write that left the account past its caps.
 * Called inside the write's transaction, after the write and after the vault revision bump:
 * the bump locks the user's row, so two writers of one account are checked one after the
 * other and cannot both slip under the cap; throwing rolls the whole write back, so a
 * refused write stores nothing. Only writes that can grow a vault call it (add, edit,
 * import); moving to Trash, restoring and deleting are never refused, so a full vault can
 * always be made smaller.
 */
export async function assertVaultRoom(ctx: QuotaContext, userId: string, trx: Executor): Promise<void> {
  const { maxItems, maxBytes } = ctx.config.vaultCaps;
  const usage = await ctx.repos.usage.usage(userId, trx);
  if (usage.items > maxItems) {
    throw new HttpError(
      413,
      `This vault is full: it may hold ${maxItems.toLocaleString('en-US')} items, Trash included. Delete some or empty Trash, then try again.`,
    );
  }
  if (usage.bytes > maxBytes) {
    throw new HttpError(
      413,
      `This vault is full: its items may take ${megabytes(maxBytes)} on this server. Delete some or empty Trash, then try again.`,
    );
  }
}
