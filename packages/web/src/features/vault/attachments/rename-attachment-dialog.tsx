import { useState, type FormEvent } from 'react';
import { attachmentMetadataProblem } from '@lockit/crypto';
import { Dialog } from '@/components/ui/dialog';
import { buttonPrimary, buttonSecondary } from '@/components/ui/styles';
import { TextInput } from '@/components/ui/text-input';

interface Props {
  name: string;
  /** Resolves true once saved (the dialog then closes), false when it failed (the error shows beside the list). */
  onRename: (name: string) => Promise<boolean>;
  onClose: () => void;
}

/** A file's new name; a name the seal would refuse is said here, before anything is sent. */
export function RenameAttachmentDialog({ name, onRename, onClose }: Props) {
  const [value, setValue] = useState(name);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = value.trim();
    const refused = attachmentMetadataProblem({ name: next, size: 0, type: '' });
    if (refused) {
      setProblem(refused);
      return;
    }
    setBusy(true);
    void onRename(next).then((saved) => {
      setBusy(false);
      if (saved) onClose();
    });
  };

  return (
    <Dialog title="Rename file" onClose={onClose}>
      <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
        <TextInput label="File name" value={value} onChange={(event) => setValue(event.target.value)} autoComplete="off" />
        {problem && (
          <p role="alert" className="text-sm text-red-300">
            {problem}
          </p>
        )}
        <div className="flex justify-end gap-3">
          <button type="submit" className={buttonPrimary} disabled={busy}>
            Save
          </button>
          <button type="button" className={buttonSecondary} onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
}
