import type { Db, Executor, KeyRotationPartsTable, KeyRotationsTable } from '../schema';

export type KeyRotationRow = KeyRotationsTable;
export type KeyRotationPartRow = KeyRotationPartsTable;

/** The kinds of staged item, as stored in key_rotation_parts.kind. */
export const PART_KINDS = ['entry', 'version', 'folder', 'document', 'attachment'] as const;
export type PartKind = (typeof PART_KINDS)[number];

const ROTATION_COLUMNS = ['id', 'user_id', 'session_id', 'base_vault_revision', 'created_at', 'expires_at'] as const;

/**
 * Started key rotations and their staged parts (migration 0015). A rotation is reachable only
 * by its own user and session, and only until it expires: every lookup names all three, so
 * another account's rotation id is the same as none.
 */
export function createKeyRotationsRepository(db: Db) {
  return {
    async insert(row: KeyRotationRow, ex: Executor = db): Promise<void> {
      await ex.insertInto('key_rotations').values(row).execute();
    },

    /** The rotation if it is this user's, started by this session, and not expired at `now`. */
    findOwned(
      id: string,
      owner: { userId: string; sessionId: string },
      now: number,
      ex: Executor = db,
    ): Promise<KeyRotationRow | undefined> {
      return ex
        .selectFrom('key_rotations')
        .select(ROTATION_COLUMNS)
        .where('id', '=', id)
        .where('user_id', '=', owner.userId)
        .where('session_id', '=', owner.sessionId)
        .where('expires_at', '>', now)
        .executeTakeFirst();
    },

    /** Stores parts; a part staged again (same kind and key) replaces the earlier one. */
    async upsertParts(parts: readonly KeyRotationPartRow[], ex: Executor = db): Promise<void> {
      if (parts.length === 0) return;
      await ex
        .insertInto('key_rotation_parts')
        .values([...parts])
        .onConflict((oc) =>
          oc.columns(['rotation_id', 'kind', 'item_key']).doUpdateSet((eb) => ({ payload: eb.ref('excluded.payload') })),
        )
        .execute();
    },

    /** How many parts of each kind are staged. */
    async countByKind(rotationId: string, ex: Executor = db): Promise<Record<PartKind, number>> {
      const rows = await ex
        .selectFrom('key_rotation_parts')
        .select((eb) => ['kind', eb.fn.countAll<string | number>().as('count')])
        .where('rotation_id', '=', rotationId)
        .groupBy('kind')
        .execute();
      const counts: Record<PartKind, number> = { entry: 0, version: 0, folder: 0, document: 0, attachment: 0 };
      for (const row of rows) if (row.kind in counts) counts[row.kind as PartKind] = Number(row.count);
      return counts;
    },

    /** The keys of every staged part of one kind (the commit's completeness check). */
    async listKeys(rotationId: string, kind: PartKind, ex: Executor = db): Promise<string[]> {
      const rows = await ex
        .selectFrom('key_rotation_parts')
        .select('item_key')
        .where('rotation_id', '=', rotationId)
        .where('kind', '=', kind)
        .execute();
      return rows.map((row) => row.item_key);
    },

    /** One page of staged parts of a kind, by key, after `afterKey` (keyset paging). */
    listPage(
      rotationId: string,
      kind: PartKind,
      afterKey: string,
      limit: number,
      ex: Executor = db,
    ): Promise<Array<Pick<KeyRotationPartRow, 'item_key' | 'payload'>>> {
      return ex
        .selectFrom('key_rotation_parts')
        .select(['item_key', 'payload'])
        .where('rotation_id', '=', rotationId)
        .where('kind', '=', kind)
        .where('item_key', '>', afterKey)
        .orderBy('item_key')
        .limit(limit)
        .execute();
    },

    /** One rotation and its parts. */
    async delete(id: string, ex: Executor = db): Promise<void> {
      await ex.deleteFrom('key_rotation_parts').where('rotation_id', '=', id).execute();
      await ex.deleteFrom('key_rotations').where('id', '=', id).execute();
    },

    /** Every rotation of the user and their parts (a new start, account deletion). */
    async deleteByUser(userId: string, ex: Executor = db): Promise<void> {
      const ids = ex.selectFrom('key_rotations').select('id').where('user_id', '=', userId);
      await ex.deleteFrom('key_rotation_parts').where('rotation_id', 'in', ids).execute();
      await ex.deleteFrom('key_rotations').where('user_id', '=', userId).execute();
    },
  };
}

export type KeyRotationsRepository = ReturnType<typeof createKeyRotationsRepository>;
