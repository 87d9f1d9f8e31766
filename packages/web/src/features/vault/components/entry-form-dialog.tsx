import { ENTRY_PLAINTEXT_LIMITS } from '@lockit/contract';
import { useId, useState, type FormEvent } from 'react';
import { Dialog } from '@/components/ui/dialog';
import { PasswordInput } from '@/components/ui/password-input';
import { buttonPrimary, buttonSecondary } from '@/components/ui/styles';
import { TextInput } from '@/components/ui/text-input';
import { logFailure } from '@/lib/log';
import type { EntryDraft } from '../lib/seal-entry';

export const EMPTY_DRAFT: EntryDraft = { serviceName: '', username: '', password: '', url: '', notes: '' };

interface EntryFormDialogProps {
  title: 'Add New Password' | 'Edit Password';
  submitLabel: 'Add' | 'Save';
  initial: EntryDraft;
  /** Resolves once saved (the caller then closes the dialog); a rejection keeps it open. */
  onSubmit: (draft: EntryDraft) => Promise<void>;
  onClose: () => void;
}

/**
 * The Add and Edit modals. Service, Username and Password are required; URL and Notes are
 * optional. A failed save is only logged (spec) and never loses what was typed: the dialog
 * stays open with its values.
 */
export function EntryFormDialog({ title, submitLabel, initial, onSubmit, onClose }: EntryFormDialogProps) {
  const [draft, setDraft] = useState(initial);
  const [saving, setSaving] = useState(false);
  const notesId = useId();

  const set = (field: keyof EntryDraft) => (event: { target: { value: string } }) =>
    setDraft((current) => ({ ...current, [field]: event.target.value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (saving || draft.serviceName.trim() === '' || draft.username.trim() === '' || draft.password === '') return;
    setSaving(true);
    try {
      await onSubmit(draft);
    } catch (error) {
      logFailure(title, error);
      setSaving(false);
    }
  };

  return (
    <Dialog title={title} onClose={onClose}>
      <form onSubmit={submit} className="flex flex-col gap-4">
        <TextInput
          label="Service"
          name="service"
          autoComplete="off"
          value={draft.serviceName}
          onChange={set('serviceName')}
          maxLength={ENTRY_PLAINTEXT_LIMITS.serviceName}
          required
        />
        <TextInput
          label="Username"
          name="entry-username"
          autoComplete="off"
          value={draft.username}
          onChange={set('username')}
          maxLength={ENTRY_PLAINTEXT_LIMITS.username}
          required
        />
        <PasswordInput
          label="Password"
          name="entry-password"
          autoComplete="off"
          value={draft.password}
          onChange={set('password')}
          maxLength={ENTRY_PLAINTEXT_LIMITS.password}
          required
        />
        <TextInput
          label="URL (optional)"
          name="url"
          inputMode="url"
          autoComplete="off"
          value={draft.url}
          onChange={set('url')}
          maxLength={ENTRY_PLAINTEXT_LIMITS.url}
        />
        <div className="flex flex-col gap-1">
          <label htmlFor={notesId} className="text-sm font-medium text-slate-300">
            Notes (optional)
          </label>
          <textarea
            id={notesId}
            name="notes"
            rows={3}
            value={draft.notes}
            onChange={set('notes')}
            maxLength={ENTRY_PLAINTEXT_LIMITS.notes}
            className="w-full rounded-lg border border-slate-700 bg-slate-800 px-3 py-2 text-white outline-none focus:border-cyan-400"
          />
        </div>
        <div className="flex justify-end gap-3">
          <button type="submit" className={buttonPrimary} disabled={saving}>
            {submitLabel}
          </button>
          <button type="button" className={buttonSecondary} onClick={onClose}>
            Cancel
          </button>
        </div>
        <p aria-live="polite" className="min-h-5 text-sm text-slate-400">
          {saving ? 'Encrypting and saving…' : ''}
        </p>
      </form>
    </Dialog>
  );
}
