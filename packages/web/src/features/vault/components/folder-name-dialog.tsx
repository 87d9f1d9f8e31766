import { FOLDER_NAME_LIMIT } from '@lockit/contract';
import { useState, type FormEvent } from 'react';
import { Dialog } from '@/components/ui/dialog';
import { buttonPrimary, buttonSecondary } from '@/components/ui/styles';
import { TextInput } from '@/components/ui/text-input';

interface FolderNameDialogProps {
  /** Resolves true once saved (the caller then closes the dialog); false keeps it open with the name. */
  onSubmit: (name: string) => Promise<boolean>;
  onClose: () => void;
  /** Rename: the dialog's title, the name it starts with, its button and a line on what else moves. */
  title?: string;
  initialName?: string;
  submitLabel?: string;
  note?: string;
  /** Why the last submit failed, shown in the dialog (the name typed stays). */
  error?: string | null;
}

/** New folder, or a folder's new name. A "/" nests it: "Work/Banking" goes inside "Work". */
export function FolderNameDialog({
  onSubmit,
  onClose,
  title = 'New Folder',
  initialName = '',
  submitLabel = 'Create',
  note,
  error = null,
}: FolderNameDialogProps) {
  const [name, setName] = useState(initialName);
  const [saving, setSaving] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (saving || name.trim() === '') return;
    setSaving(true);
    if (!(await onSubmit(name.trim()))) setSaving(false);
  };

  return (
    <Dialog title={title} onClose={onClose}>
      <form onSubmit={(event) => void submit(event)} className="flex flex-col gap-4">
        <TextInput
          label="Folder name"
          value={name}
          onChange={(event) => setName(event.target.value)}
          maxLength={FOLDER_NAME_LIMIT}
          required
        />
        <p className="text-sm text-slate-400">Use a slash to put it inside another folder, as in “Work/Banking”.</p>
        {note !== undefined && <p className="text-sm text-slate-400">{note}</p>}
        {error !== null && (
          <p role="alert" className="rounded-lg border border-red-500/50 bg-red-950/60 px-3 py-2 text-sm text-red-100">
            {error}
          </p>
        )}
        <div className="flex justify-end gap-3">
          <button type="submit" className={buttonPrimary} disabled={saving}>
            {submitLabel}
          </button>
          <button type="button" className={buttonSecondary} onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
}
