import type { FileRef } from '@lockit/contract';
import type {
  ActionResult,
  ConflictChoice,
  EntryDraft,
  EntrySecrets,
  OpenEntry,
  OpenFolder,
  OpenVersion,
  VaultEntry,
} from '@lockit/client-core';

/** How a conflict is settled, and an earlier version opened: the client core's (vault/writes). */
export type { ConflictChoice, OpenVersion };

/** A write that met a newer version saved elsewhere (409): both sides, for ConflictDialog. */
export interface EntryConflict {
  /** 'save': an edit (or a restored version) met a newer version; 'delete': a move to Trash did. */
  kind: 'save' | 'delete';
  /** The person's version; null for a delete. */
  mine: EntryDraft | null;
  /** The version saved elsewhere, as it is now on the server, opened. */
  theirs: OpenEntry;
  theirsDraft: EntryDraft;
  /**
   * Carries out a choice. Resolves { ok: false, message } when that failed (the dialog stays
   * open and shows it); on success the conflict is gone, and the write that met it resolves.
   */
  resolve: (choice: ConflictChoice) => Promise<ActionResult>;
}

export type HistoryResult = { ok: true; versions: OpenVersion[] } | { ok: false; message: string };
export type FolderResult = { ok: true; folder: OpenFolder } | { ok: false; message: string };

/** A new entry's outcome: saved under `id`, or why not. */
export type AddResult = { ok: true; id: string } | { ok: false; message: string };

export interface EntryActions {
  /** Saves a new entry; success names its id, so the list can show and open it. */
  add(draft: EntryDraft): Promise<AddResult>;
  save(entry: OpenEntry, draft: EntryDraft): Promise<ActionResult>;
  /** The spec's delete: to Trash. A 404 (already gone) removes it here too. */
  trash(entry: VaultEntry): Promise<ActionResult>;
  restore(entry: VaultEntry): Promise<ActionResult>;
  /** For good: a trashed entry and its history. */
  purge(entry: VaultEntry): Promise<ActionResult>;
  setFavorite(entry: OpenEntry, on: boolean): Promise<ActionResult>;
  /**
   * Saves the item with its file list changed by `change`, on the newest version (decision
   * 0084). `served` is the list to start from when the item never listed its files;
   * `deletedForGood` a file id the item then remembers as deleted for good.
   */
  setFiles(
    entry: OpenEntry,
    change: (files: FileRef[]) => FileRef[],
    served: readonly FileRef[],
    deletedForGood?: string,
  ): Promise<ActionResult>;
  /** Rejects (and shows the entry as damaged) when a secret does not open. */
  openSecrets(entry: OpenEntry): Promise<EntrySecrets>;
  /** The whole draft for Edit; rejects (and shows the entry as damaged) when it does not open. */
  openDraft(entry: OpenEntry): Promise<EntryDraft>;
  /** The entry's earlier versions, newest first; fetched only when asked. */
  history(entry: OpenEntry): Promise<HistoryResult>;
  /** A normal save of that version's content on the current revision. */
  restoreVersion(entry: OpenEntry, version: OpenVersion): Promise<ActionResult>;
  addFolder(name: string): Promise<FolderResult>;
  renameFolder(folder: OpenFolder, name: string): Promise<FolderResult>;
  /** Entries keep naming the folder; they show as in no folder. */
  deleteFolder(folder: OpenFolder): Promise<ActionResult>;
}

/** The folder half of EntryActions (lib/folder-actions.ts). */
export type FolderActions = Pick<EntryActions, 'addFolder' | 'renameFolder' | 'deleteFolder'>;
