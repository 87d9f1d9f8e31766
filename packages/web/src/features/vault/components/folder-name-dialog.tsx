import { FOLDER_NAME_LIMIT } from '@lockit/contract';
import { useState, type FormEvent } from 'react';
import { Dialog } from '@/components/ui/dialog';
import { buttonPrimary, buttonSecondary } from '@/components/ui/styles';
import { TextInput } from '@/components/ui/text-input';

interface FolderNameDialogProps {
  /** Resolves true once saved (the caller then closes the dialog); false keeps it open with the name. */
  onSubmit: (name: string) => Promise<boolean>;
  onClose: () => void;
}

/** New folder. A "/" nests it: "Work/Banking" goes inside "Work". */
export function FolderNameDialog({ onSubmit, onClose }: FolderNameDialogProps) {
  const [name, setName] = useState('');
  const [saving, setSaving] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (saving || name.trim() === '') return;
    setSaving(true);
    if (!(await onSubmit(name.trim()))) setSaving(false);
  };

  return (
    <Dialog title="New Folder" onClose={onClose}>
      <form onSubmit={(event) => void submit(event)} className="flex flex-col gap-4">
        <TextInput
          label="Folder name"
          value={name}
          onChange={(event) => setName(event.target.value)}
          maxLength={FOLDER_NAME_LIMIT}
          required
        />
        <p className="text-sm text-slate-400">Use a slash to put it inside another folder, as in “Work/Banking”.</p>
        <div className="flex justify-end gap-3">
          <button type="submit" className={buttonPrimary} disabled={saving}>
            Create
          </button>
          <button type="button" className={buttonSecondary} onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
}
