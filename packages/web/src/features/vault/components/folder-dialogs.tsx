import { useState } from 'react';
import type { FolderNode } from '../lib/entry-filter';
import { planFolderRename, runFolderRenames } from '../lib/folder-rename';
import type { ActionResult, OpenFolder } from '@lockit/client-core';
import { ConfirmDialog } from './confirm-dialog';
import { FolderNameDialog } from './folder-name-dialog';

/** How many folders are shown inside a node (its whole subtree, itself left out). */
function foldersInside(node: FolderNode): number {
  return node.children.reduce((sum, child) => sum + (child.id === null ? 0 : 1) + foldersInside(child), 0);
}

const folders = (count: number) => (count === 1 ? '1 folder' : `${count} folders`);
const entries = (count: number) => (count === 1 ? '1 entry' : `${count} entries`);

interface RenameFolderDialogProps {
  node: FolderNode;
  /** The folders as they are now (their revisions), which the rename saves over. */
  openFolders: readonly OpenFolder[];
  rename: (folder: OpenFolder, name: string) => Promise<ActionResult>;
  /** Once every folder is renamed, with the node's new path. */
  onRenamed: (path: string) => void;
  onClose: () => void;
}

/**
 * Rename a folder of the tree, starting from its whole path: "Work/Banking" can be renamed,
 * or moved by changing the part before the slash. The folders inside it go with it (see
 * planFolderRename). A failure shows in the dialog, which keeps the name typed.
 */
export function RenameFolderDialog({ node, openFolders, rename, onRenamed, onClose }: RenameFolderDialogProps) {
  const [error, setError] = useState<string | null>(null);
  const inside = foldersInside(node);

  const submit = async (typed: string): Promise<boolean> => {
    const plan = planFolderRename(node, openFolders, typed);
    if (!plan.ok) {
      setError(plan.message);
      return false;
    }
    const result = await runFolderRenames(plan.renames, rename);
    if (!result.ok) {
      setError(result.message);
      return false;
    }
    onRenamed(plan.path);
    return true;
  };

  return (
    <FolderNameDialog
      title="Rename Folder"
      initialName={node.path}
      submitLabel="Rename"
      note={inside > 0 ? `The ${folders(inside)} inside it move with it.` : undefined}
      error={error}
      onSubmit={submit}
      onClose={onClose}
    />
  );
}

interface DeleteFolderDialogProps {
  node: FolderNode;
  folder: OpenFolder;
  /** Entries (not in Trash) directly in this folder. */
  entryCount: number;
  remove: (folder: OpenFolder) => Promise<ActionResult>;
  onDeleted: () => void;
  onClose: () => void;
}

/**
 * Delete one folder. What it says is what happens: the server deletes only the folder (it
 * cannot read which entries name it, their folder is inside their ciphertext), the entries
 * keep their place in the vault and show under "No folder", and folders inside it, which
 * are folders of their own, stay. A failure shows in the dialog.
 */
export function DeleteFolderDialog({ node, folder, entryCount, remove, onDeleted, onClose }: DeleteFolderDialogProps) {
  const [error, setError] = useState<string | null>(null);
  const inside = foldersInside(node);
  const held =
    entryCount === 0
      ? 'No entry is in it.'
      : `The ${entries(entryCount)} in it ${entryCount === 1 ? 'is' : 'are'} not deleted: ${entryCount === 1 ? 'it stays' : 'they stay'} in your vault, under “No folder”.`;
  const kept = inside > 0 ? ` The ${folders(inside)} inside it ${inside === 1 ? 'is' : 'are'} kept.` : '';

  const confirm = async () => {
    const result = await remove(folder);
    if (result.ok) onDeleted();
    else setError(result.message);
  };

  return (
    <ConfirmDialog
      title="Delete Folder"
      message={`Delete the folder “${node.path}”? ${held}${kept}`}
      confirmLabel="Delete folder"
      error={error}
      onConfirm={confirm}
      onClose={onClose}
    />
  );
}
