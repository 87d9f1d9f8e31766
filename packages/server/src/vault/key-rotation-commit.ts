import { parseVaultState } from '@lockit/contract';
import type { AppContext } from '../app-context';
import {
  PART_KINDS,
  type KeyRotationPartRow,
  type KeyRotationRow,
  type PartKind,
} from '../db/repositories/key-rotations-repository';
import type { Executor } from '../db/schema';
import { HttpError, SIGN_IN_REQUIRED } from '../http/http-error';
import {
  attachmentPayload,
  documentPayload,
  entryPayload,
  folderPayload,
  parseAttachmentKey,
  parseVersionKey,
} from './key-rotation-parts';
import type { RotationOwner } from './key-rotation-staging';

type RotationContext = Pick<AppContext, 'db' | 'repos' | 'now' | 'live'>;

/** What the browser sends to commit: the new wrapped key at the next generation and key epoch, and the new vault state. */
export interface RotationCommit {
  protectedKey: string;
  keyGeneration: number;
  keyEpoch: number;
  vaultState: string;
}

export type CommitOutcome =
  | { outcome: 'committed'; keyGeneration: number; vaultRevision: number; passkeyUnlocksRemoved: number; sessionsEnded: number }
  | { outcome: 'not-found' }
  | { outcome: 'vault-changed' }
  | { outcome: 'key-generation-conflict' }
  | { outcome: 'vault-state-stale'; state: string | null }
  | { outcome: 'incomplete'; missing: Record<PartKind, number>; extra: Record<PartKind, number> };

/** Staged parts read and written per round trip of the swap. */
const APPLY_PAGE = 500;

/**
 * Swaps the re-encrypted vault in, in ONE transaction, or changes nothing:
 *
 * 1. the rotation is the owner's and not expired (else not-found);
 * 2. the vault is still at the revision it was read at and no account document was written
 *    since the start (else vault-changed, and the rotation is deleted: it can never apply);
 * 3. the new key is at the stored generation + 1 and the stored key epoch + 1, the new state at
 *    the stored counter + 1;
 * 4. the staged set is exactly the account's entries (live and Trash), history versions,
 *    folders, account documents and files (each with its entry; uploads under way included):
 *    nothing missing, nothing extra (else incomplete);
 * 5. then every ciphertext replaced (see rotated-vault-repository.ts for the revisions), the
 *    users row (wrapped key, generation, key epoch, state, revision + 1) in one conditional
 *    UPDATE, the files checked again with that row held (a file created meanwhile: incomplete,
 *    rolled back), every passkey unlock removed (it wraps the old key, bound to the old epoch), every other session of the user
 *    ended (the caller's stays), and the rotation's staging rows deleted;
 * 6. the change cursor's floor raised to the new revision (decision 0066): every ciphertext
 *    changed, so no cursor from before is answered (a reset: devices read the vault whole),
 *    and once committed, every device is told so (a `reset` notice) and other sessions' streams end.
 *
 * Invariant: after a commit no row of the account holds a ciphertext or a file key under the old key, and
 * before it no row the vault uses was touched; a refusal after a write throws (rollback).
 */
export async function commitKeyRotation(
  ctx: RotationContext,
  owner: RotationOwner,
  rotationId: string,
  commit: RotationCommit,
): Promise<CommitOutcome> {
  const done = await swapInOneTransaction(ctx, owner, rotationId, commit).catch((error: unknown) => {
    if (error instanceof RolledBack) return error.outcome;
    throw error;
  });
  if (done.outcome === 'committed') {
    ctx.live.notify(owner.userId, { seq: done.vaultRevision, reset: true });
    ctx.live.sessionsEnded(owner.userId);
  }
  return done;
}

/** A refusal found after the first write: thrown to roll the transaction back, answered as its outcome. */
class RolledBack extends Error {
  constructor(readonly outcome: CommitOutcome) {
    super(outcome.outcome);
  }
}

async function swapInOneTransaction(
  ctx: RotationContext,
  owner: RotationOwner,
  rotationId: string,
  commit: RotationCommit,
): Promise<CommitOutcome> {
  const counter = parseVaultState(commit.vaultState)!.counter;
  return ctx.db.transaction().execute(async (trx): Promise<CommitOutcome> => {
    const rotation = await ctx.repos.keyRotations.findOwned(rotationId, owner, ctx.now(), trx);
    if (!rotation) return { outcome: 'not-found' };
    const user = await ctx.repos.users.findById(owner.userId, trx);
    if (!user) throw new HttpError(401, SIGN_IN_REQUIRED);
    const base = Number(rotation.base_vault_revision);
    if (Number(user.vault_revision) !== base || (await documentWrittenSince(ctx, rotation, trx))) {
      await ctx.repos.keyRotations.delete(rotation.id, trx);
      return { outcome: 'vault-changed' };
    }
    if (commit.keyGeneration !== user.key_generation + 1) return { outcome: 'key-generation-conflict' };
    // The same conflict: another rotation (which also raised the generation) won, or a client's epoch is not the key's.
    if (commit.keyEpoch !== Number(user.key_epoch) + 1) return { outcome: 'key-generation-conflict' };
    if (counter !== Number(user.vault_state_counter) + 1) return { outcome: 'vault-state-stale', state: user.vault_state };
    const gaps = await compareStagedSet(ctx, rotation, trx);
    if (gaps) return { outcome: 'incomplete', ...gaps };

    // Ciphertexts first, the users row last: every write locks its entry, then the users row,
    // so taking them in the same order here means a racing write waits or fails, never deadlocks.
    await replaceCiphertexts(ctx, rotation, trx);
    const swapped = await ctx.repos.rotatedVault.swapVaultKey(
      owner.userId,
      {
        baseVaultRevision: base,
        protectedKey: commit.protectedKey,
        keyGeneration: commit.keyGeneration,
        keyEpoch: commit.keyEpoch,
        vaultState: commit.vaultState,
        vaultStateCounter: counter,
      },
      ctx.now(),
      trx,
    );
    // A write raced the checks above (PostgreSQL re-reads the row): nothing of this commit stays.
    if (!swapped) throw new HttpError(409, KEY_ROTATION_VAULT_CHANGED);
    // Files again, now that the users row is held: a file created since the check above (its
    // create holds the row while it checks the key epoch, see createAttachment) is seen here,
    // and one created later is refused for its old epoch, so none keeps a key under the old one.
    const late = await compareStagedSet(ctx, rotation, trx, ['attachment']);
    if (late) throw new RolledBack({ outcome: 'incomplete', ...late });
    const passkeyUnlocksRemoved = await ctx.repos.rotatedVault.clearPasskeyUnlocks(owner.userId, trx);
    const sessionsEnded = await ctx.repos.sessions.deleteOthersOfUser(owner.userId, owner.sessionId, trx);
    await ctx.repos.keyRotations.delete(rotation.id, trx);
    await ctx.repos.changes.raiseFloor(owner.userId, base + 1, trx);
    return {
      outcome: 'committed',
      keyGeneration: commit.keyGeneration,
      vaultRevision: base + 1,
      passkeyUnlocksRemoved,
      sessionsEnded,
    };
  });
}

export const KEY_ROTATION_VAULT_CHANGED = 'Your vault changed while Lockit read it. Try again.';

/**
 * Account documents are written without bumping the vault revision, so the revision check
 * does not see them: one written since the start would be overwritten by the older copy the
 * browser re-encrypted.
 */
async function documentWrittenSince(ctx: RotationContext, rotation: KeyRotationRow, trx: Executor): Promise<boolean> {
  const documents = await ctx.repos.rotatedVault.documents(rotation.user_id, trx);
  return documents.some((document) => Number(document.updated_at) >= Number(rotation.created_at));
}

/**
 * Counts of account items with no staged part, and of staged parts naming no item, for the
 * kinds given (all by default); undefined when they match.
 */
async function compareStagedSet(
  ctx: RotationContext,
  rotation: KeyRotationRow,
  trx: Executor,
  kinds: readonly PartKind[] = PART_KINDS,
) {
  const vault = ctx.repos.rotatedVault;
  const userId = rotation.user_id;
  const held: Record<PartKind, () => Promise<string[]>> = {
    entry: () => vault.entryIds(userId, 'all', trx),
    version: () => vault.versionKeys(userId, 'all', trx),
    folder: () => vault.folderIds(userId, 'all', trx),
    document: async () => (await vault.documents(userId, trx)).map((row) => row.kind),
    attachment: () => vault.attachmentKeys(userId, 'all', trx),
  };
  const missing: Record<PartKind, number> = { entry: 0, version: 0, folder: 0, document: 0, attachment: 0 };
  const extra: Record<PartKind, number> = { entry: 0, version: 0, folder: 0, document: 0, attachment: 0 };
  for (const kind of kinds) {
    const account = await held[kind]();
    const staged = new Set(await ctx.repos.keyRotations.listKeys(rotation.id, kind, trx));
    const inAccount = new Set(account);
    missing[kind] = account.filter((key) => !staged.has(key)).length;
    extra[kind] = [...staged].filter((key) => !inAccount.has(key)).length;
  }
  const matches = kinds.every((kind) => missing[kind] === 0 && extra[kind] === 0);
  return matches ? undefined : { missing, extra };
}

/** Writes every staged ciphertext over the live one, a page of parts at a time. */
async function replaceCiphertexts(ctx: RotationContext, rotation: KeyRotationRow, trx: Executor): Promise<void> {
  const vault = ctx.repos.rotatedVault;
  const userId = rotation.user_id;
  type Part = Pick<KeyRotationPartRow, 'item_key' | 'payload'>;
  const apply: Record<PartKind, (page: Part[]) => Promise<void>> = {
    entry: (page) =>
      vault.replaceEntries(
        userId,
        page.map((part) => ({ id: part.item_key, fields: entryPayload(part.payload) })),
        trx,
      ),
    version: (page) =>
      vault.replaceVersions(
        userId,
        page.map((part) => ({ ...parseVersionKey(part.item_key), fields: entryPayload(part.payload) })),
        trx,
      ),
    folder: async (page) => {
      for (const part of page) await vault.replaceFolder(userId, part.item_key, folderPayload(part.payload).name, trx);
    },
    document: async (page) => {
      for (const part of page) await vault.replaceDocument(userId, part.item_key, documentPayload(part.payload).ciphertext, trx);
    },
    attachment: (page) =>
      vault.replaceAttachmentKeys(
        userId,
        page.map((part) => ({ ...parseAttachmentKey(part.item_key), ...attachmentPayload(part.payload) })),
        trx,
      ),
  };
  for (const kind of PART_KINDS) {
    let after = '';
    for (;;) {
      const page = await ctx.repos.keyRotations.listPage(rotation.id, kind, after, APPLY_PAGE, trx);
      await apply[kind](page);
      if (page.length < APPLY_PAGE) break;
      after = page.at(-1)!.item_key;
    }
  }
}
