import { useState, type FormEvent } from 'react';
import { buttonPrimary } from '@/components/ui/styles';
import { TextInput } from '@/components/ui/text-input';
import { useUpdateUsername } from '../api/update-username';

/** The username with an edit toggle; a successful update shows the new name and closes the box. */
export function UsernameEditor({ username }: { username: string }) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(username);
  const update = useUpdateUsername();

  const toggle = () => {
    setDraft(username);
    setEditing((open) => !open);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    update.mutate(
      { username: draft },
      {
        onSuccess: () => setEditing(false),
        onError: () => window.alert('Username update failed.'),
      },
    );
  };

  return (
    <div className="flex w-full flex-col items-center gap-3">
      <div className="flex items-center gap-2">
        <h1 className="text-2xl font-bold text-white">{username}</h1>
        <button
          type="button"
          aria-label="Edit username"
          aria-expanded={editing}
          onClick={toggle}
          className="rounded p-1 text-slate-400 hover:text-cyan-300"
        >
          <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2">
            <path d="M4 20h4L19 9l-4-4L4 16v4z" strokeLinejoin="round" />
          </svg>
        </button>
      </div>
      {editing && (
        <form onSubmit={onSubmit} className="flex w-full max-w-sm flex-col gap-3 text-left">
          <TextInput
            label="New Username"
            name="username"
            autoComplete="username"
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
          />
          <button type="submit" className={buttonPrimary} disabled={update.isPending}>
            Update Username
          </button>
        </form>
      )}
    </div>
  );
}
