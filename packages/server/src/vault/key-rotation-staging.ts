import { randomUUID } from 'node:crypto';
import { KEY_ROTATION_TTL_MS, type KeyRotationPart } from '@lockit/contract';
import type { AppContext } from '../app-context';
import type { KeyRotationRow, PartKind } from '../db/repositories/key-rotations-repository';
import type { Executor } from '../db/schema';
import { HttpError, SIGN_IN_REQUIRED } from '../http/http-error';
import { parseAttachmentKey, partRows, unknownItemsMessage, type PartKeys } from './key-rotation-parts';

type RotationContext = Pick<AppContext, 'db' | 'repos' | 'now'>;

/** Whose rotation it is: only the user and the session that started it may use it. */
export interface RotationOwner {
  userId: string;
  sessionId: string;
}

export type StartOutcome = { outcome: 'started'; rotation: KeyRotationRow; keyGeneration: number } | { outcome: 'vault-changed' };

/**
 * Starts a rotation for the vault as it is at `vaultRevision` (the revision the browser read
 * every ciphertext at). One rotation per user: older ones, and their parts, are deleted in
 * the same transaction. A vault already at another revision starts nothing.
 */
export function startKeyRotation(ctx: RotationContext, owner: RotationOwner, vaultRevision: number): Promise<StartOutcome> {
  return ctx.db.transaction().execute(async (trx): Promise<StartOutcome> => {
    const user = await ctx.repos.users.findById(owner.userId, trx);
    if (!user) throw new HttpError(401, SIGN_IN_REQUIRED);
    if (Number(user.vault_revision) !== vaultRevision) return { outcome: 'vault-changed' };
    await ctx.repos.keyRotations.deleteByUser(owner.userId, trx);
    const at = ctx.now();
    const rotation: KeyRotationRow = {
      id: randomUUID(),
      user_id: owner.userId,
      session_id: owner.sessionId,
      base_vault_revision: vaultRevision,
      created_at: at,
      expires_at: at + KEY_ROTATION_TTL_MS,
    };
    await ctx.repos.keyRotations.insert(rotation, trx);
    return { outcome: 'started', rotation, keyGeneration: user.key_generation };
  });
}

export type StageOutcome =
  { outcome: 'staged'; counts: Record<PartKind, number> } | { outcome: 'not-found' } | { outcome: 'vault-changed' };

/**
 * Stages one uploaded part, all or nothing: every item must exist in the owner's vault now
 * (an entry, a version of one, a folder, a document of that kind, a file of that entry), else a 400 naming the
 * unknown ones and nothing of the part is staged. A vault changed since the start can no
 * longer be committed: the rotation is deleted at once, so the browser stops uploading.
 */
export function stageKeyRotationPart(
  ctx: RotationContext,
  owner: RotationOwner,
  rotationId: string,
  part: KeyRotationPart,
): Promise<StageOutcome> {
  const { rows, keys } = partRows(rotationId, part);
  return ctx.db.transaction().execute(async (trx): Promise<StageOutcome> => {
    const rotation = await ctx.repos.keyRotations.findOwned(rotationId, owner, ctx.now(), trx);
    if (!rotation) return { outcome: 'not-found' };
    const user = await ctx.repos.users.findById(owner.userId, trx);
    if (!user) throw new HttpError(401, SIGN_IN_REQUIRED);
    if (Number(user.vault_revision) !== Number(rotation.base_vault_revision)) {
      await ctx.repos.keyRotations.delete(rotation.id, trx);
      return { outcome: 'vault-changed' };
    }
    const unknown = await unknownItems(ctx, owner.userId, keys, trx);
    if (Object.values(unknown).some((list) => list.length > 0)) throw new HttpError(400, unknownItemsMessage(unknown));
    await ctx.repos.keyRotations.upsertParts(rows, trx);
    return { outcome: 'staged', counts: await ctx.repos.keyRotations.countByKind(rotation.id, trx) };
  });
}

/** The keys of `keys` that name nothing in the user's vault, by kind. */
async function unknownItems(ctx: RotationContext, userId: string, keys: PartKeys, trx: Executor): Promise<PartKeys> {
  const vault = ctx.repos.rotatedVault;
  const versionEntries = [...new Set(keys.version.map((key) => key.slice(0, key.lastIndexOf(':'))))];
  const fileIds = keys.attachment.map((key) => parseAttachmentKey(key).id);
  const known = {
    entry: new Set(await vault.entryIds(userId, keys.entry, trx)),
    version: new Set(await vault.versionKeys(userId, versionEntries, trx)),
    folder: new Set(await vault.folderIds(userId, keys.folder, trx)),
    document: new Set(keys.document.length > 0 ? (await vault.documents(userId, trx)).map((row) => row.kind) : []),
    attachment: new Set(await vault.attachmentKeys(userId, fileIds, trx)),
  };
  return {
    entry: keys.entry.filter((key) => !known.entry.has(key)),
    version: keys.version.filter((key) => !known.version.has(key)),
    folder: keys.folder.filter((key) => !known.folder.has(key)),
    document: keys.document.filter((key) => !known.document.has(key)),
    attachment: keys.attachment.filter((key) => !known.attachment.has(key)),
  };
}
