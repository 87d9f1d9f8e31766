import { FOLDER_NAME_LIMIT } from '@lockit/contract';
import { folderPath, type FolderNode } from './entry-filter';
import { checkFolderName } from '@lockit/client-core';
import type { ActionResult, OpenFolder } from '@lockit/client-core';

/** One folder to save under a new name. */
export interface FolderRename {
  folder: OpenFolder;
  name: string;
}

/** `path`: the node's new path, as saved. */
export type FolderRenamePlan = { ok: true; path: string; renames: FolderRename[] } | { ok: false; message: string };

/** Every folder at `node` and below it in the tree, with the path each had there, the shallowest first. */
function foldersUnder(node: FolderNode): { id: string; path: string }[] {
  const found: { id: string; path: string }[] = [];
  let level: readonly FolderNode[] = [node];
  while (level.length > 0) {
    for (const each of level) if (each.id !== null) found.push({ id: each.id, path: each.path });
    level = level.flatMap((each) => each.children);
  }
  return found;
}

/**
 * What renaming a node of the folder tree saves. Nesting is by name ("Work/Banking" is inside
 * "Work"), so renaming "Work" to "Job" renames every folder shown inside it too ("Job/Banking"),
 * as a person expects of a folder; a node only implied by deeper names (no folder of its own)
 * renames just those. A second folder of the same path, which the tree shows without children,
 * renames only itself.
 *
 * The plan is made from the tree as it was shown and the folders as they are now: a folder gone
 * meanwhile is left out, and one already under its new name (a retry after a partial failure)
 * is not saved again. Every new name is checked before anything is saved: one that would be too
 * long refuses the whole rename, so nothing changes.
 */
export function planFolderRename(node: FolderNode, folders: readonly OpenFolder[], typed: string): FolderRenamePlan {
  const checked = checkFolderName(typed);
  if (!checked.ok) return checked;
  const byId = new Map(folders.map((folder) => [folder.id, folder]));
  const renames: FolderRename[] = [];
  for (const { id, path } of foldersUnder(node)) {
    const folder = byId.get(id);
    if (!folder) continue;
    const name = checked.name + path.slice(node.path.length);
    if (folderPath(folder.name) === name) continue;
    if (name.length > FOLDER_NAME_LIMIT)
      return {
        ok: false,
        message: `The folder inside it would be named “${name}”, longer than ${FOLDER_NAME_LIMIT} characters. Choose a shorter name.`,
      };
    renames.push({ folder, name });
  }
  return { ok: true, path: checked.name, renames };
}

/**
 * Saves a plan's renames one by one, the parent first, and stops at the first failure: the
 * folders not yet renamed keep their names and still show (under the old path), and renaming
 * again finishes the job. Resolves { ok: false, message } saying what was and was not renamed.
 */
export async function runFolderRenames(
  renames: readonly FolderRename[],
  rename: (folder: OpenFolder, name: string) => Promise<ActionResult>,
): Promise<ActionResult> {
  let done = 0;
  for (const { folder, name } of renames) {
    const result = await rename(folder, name);
    if (!result.ok) {
      if (done === 0) return result;
      return {
        ok: false,
        message: `${result.message} ${done} of ${renames.length} folders were renamed; “${folderPath(folder.name)}” and the rest still have their old names. Rename again to finish.`,
      };
    }
    done += 1;
  }
  return { ok: true };
}
