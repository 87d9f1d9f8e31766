import type { EntryActions, EntryConflict } from '../lib/entry-action-types';
import { emptyDraft } from '@lockit/client-core';
import type { ActionResult, EntryDraft, OpenEntry, OpenFolder, VaultEntry } from '@lockit/client-core';
import { ConflictDialog } from './conflict-dialog';
import { DeleteEntryDialog } from './delete-entry-dialog';
import { EntryFormDialog } from './entry-form-dialog';
import { FolderNameDialog } from './folder-name-dialog';
import { HistoryPanel } from './history-panel';
import { PurgeEntryDialog } from './purge-entry-dialog';

/** The dialog the vault screen has open, with what it works on. */
export type OpenDialog =
  | { kind: 'add' }
  /** `generate`: open with the password generator showing (the health report's "Change"). */
  | { kind: 'edit'; entry: OpenEntry; draft: EntryDraft; generate?: boolean }
  | { kind: 'delete'; entry: VaultEntry }
  | { kind: 'purge'; entry: VaultEntry }
  | { kind: 'history'; entry: OpenEntry }
  | { kind: 'folder' }
  | null;

interface VaultDialogsProps {
  dialog: OpenDialog;
  folders: readonly OpenFolder[];
  actions: EntryActions & { conflict: EntryConflict | null };
  /** Saves through the given action; the dialog closes when it succeeds, keeps what was typed when not. */
  onSubmit: (result: Promise<ActionResult>) => Promise<ActionResult>;
  onTrash: (entry: VaultEntry) => Promise<void>;
  onPurge: (entry: VaultEntry) => Promise<void>;
  /** A new entry was saved under `id` (the add dialog closes as after every save). */
  onAdded: (id: string) => void;
  /** A new folder's outcome; answers whether it succeeded. */
  onFolderAdded: (result: ActionResult) => boolean;
  onClose: () => void;
}

/** The vault screen's dialogs: add, edit, delete, delete forever, history, new folder, and a save's conflict. */
export function VaultDialogs({
  dialog,
  folders,
  actions,
  onSubmit,
  onTrash,
  onPurge,
  onAdded,
  onFolderAdded,
  onClose,
}: VaultDialogsProps) {
  return (
    <>
      {dialog?.kind === 'add' && (
        <EntryFormDialog
          mode="add"
          initial={emptyDraft()}
          folders={folders}
          onAddFolder={actions.addFolder}
          onSubmit={(draft) =>
            onSubmit(
              actions.add(draft).then((result) => {
                if (result.ok) onAdded(result.id);
                return result;
              }),
            )
          }
          onClose={onClose}
        />
      )}
      {dialog?.kind === 'edit' && (
        <EntryFormDialog
          mode="edit"
          initial={dialog.draft}
          startWithGenerator={dialog.generate}
          folders={folders}
          onAddFolder={actions.addFolder}
          onSubmit={(draft) => onSubmit(actions.save(dialog.entry, draft))}
          onClose={onClose}
        />
      )}
      {dialog?.kind === 'delete' && <DeleteEntryDialog onConfirm={() => onTrash(dialog.entry)} onClose={onClose} />}
      {dialog?.kind === 'purge' && <PurgeEntryDialog onConfirm={() => onPurge(dialog.entry)} onClose={onClose} />}
      {dialog?.kind === 'history' && <HistoryPanel entry={dialog.entry} actions={actions} onClose={onClose} />}
      {dialog?.kind === 'folder' && (
        <FolderNameDialog onSubmit={async (name) => onFolderAdded(await actions.addFolder(name))} onClose={onClose} />
      )}
      {actions.conflict && <ConflictDialog conflict={actions.conflict} folders={folders} />}
    </>
  );
}
