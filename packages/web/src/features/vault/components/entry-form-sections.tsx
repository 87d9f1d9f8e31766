import { DOCUMENT_LIMITS, type CustomFieldKind } from '@lockit/contract';
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { PasswordInput } from '@/components/ui/password-input';
import { buttonSecondary } from '@/components/ui/styles';
import { TextInput } from '@/components/ui/text-input';
import type { DraftField, OpenFolder } from '@lockit/client-core';

export const smallButton = `${buttonSecondary} px-3 py-1.5 text-sm`;
export const linkButton = 'text-sm font-medium text-cyan-300 underline-offset-2 hover:underline disabled:opacity-60';
export const inputClass =
  'w-full rounded-lg border border-slate-700 bg-slate-800 px-3 py-2 text-white outline-none focus:border-cyan-400 aria-[invalid=true]:border-red-400';

/** A field's error under it, tied to the input by aria-describedby (the caller passes the id). */
export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (message === undefined) return null;
  return (
    <p id={id} className="text-sm text-red-300">
      {message}
    </p>
  );
}

/** A field with its error under it. */
export function Field({
  error,
  id,
  children,
  wrapperRef,
}: {
  error: string | undefined;
  id: string;
  children: ReactNode;
  wrapperRef?: (wrapper: HTMLDivElement | null) => void;
}) {
  return (
    <div ref={wrapperRef} className="flex flex-col gap-1">
      {children}
      <FieldError id={id} message={error} />
    </div>
  );
}

const KIND_WORDS: Record<CustomFieldKind, string> = { text: 'text', hidden: 'hidden', boolean: 'yes/no' };

/** Custom fields: a label and a value each, of kind text, hidden (a secret) or yes/no. */
export function CustomFieldsEditor({
  fields,
  onChange,
  newId,
}: {
  fields: readonly DraftField[];
  onChange: (fields: DraftField[]) => void;
  newId: () => string;
}) {
  const set = (index: number, change: Partial<DraftField>) => onChange(fields.with(index, { ...fields[index]!, ...change }));
  const add = (kind: CustomFieldKind) =>
    onChange([...fields, { id: newId(), label: '', kind, value: kind === 'boolean' ? 'false' : '' }]);
  return (
    <fieldset className="flex flex-col gap-3 rounded-lg border border-slate-800 p-3">
      <legend className="px-1 text-sm font-medium text-slate-300">Custom fields</legend>
      {fields.map((field, index) => {
        const n = index + 1;
        return (
          <div key={field.id} className="flex flex-col gap-2 rounded-lg bg-slate-800/40 p-2">
            <TextInput
              label={`Field ${n} label`}
              autoComplete="off"
              value={field.label}
              maxLength={DOCUMENT_LIMITS.label}
              onChange={(event) => set(index, { label: event.target.value })}
            />
            {field.kind === 'text' && (
              <TextInput
                label={`Field ${n} value`}
                autoComplete="off"
                value={field.value}
                maxLength={DOCUMENT_LIMITS.value}
                onChange={(event) => set(index, { value: event.target.value })}
              />
            )}
            {field.kind === 'hidden' && (
              <PasswordInput
                label={`Field ${n} value`}
                autoComplete="off"
                value={field.value}
                maxLength={DOCUMENT_LIMITS.value}
                onChange={(event) => set(index, { value: event.target.value })}
              />
            )}
            {field.kind === 'boolean' && (
              <label className="flex items-center gap-2 text-sm text-slate-200">
                <input
                  type="checkbox"
                  checked={field.value === 'true'}
                  onChange={(event) => set(index, { value: String(event.target.checked) })}
                />
                {`Field ${n} value`}
              </label>
            )}
            <button
              type="button"
              className={`${linkButton} self-start`}
              onClick={() => onChange(fields.filter((_, i) => i !== index))}
            >
              Remove field {n}
              <span className="sr-only"> ({KIND_WORDS[field.kind]})</span>
            </button>
          </div>
        );
      })}
      {fields.length < DOCUMENT_LIMITS.customFields && (
        <div className="flex flex-wrap gap-2">
          <button type="button" className={smallButton} onClick={() => add('text')}>
            Add text field
          </button>
          <button type="button" className={smallButton} onClick={() => add('hidden')}>
            Add hidden field
          </button>
          <button type="button" className={smallButton} onClick={() => add('boolean')}>
            Add yes/no field
          </button>
        </div>
      )}
    </fieldset>
  );
}

/**
 * Tags as removable chips: a comma or Enter adds what was typed (text still in the box is
 * added on save too, see `pendingTags`).
 */
export function TagsEditor({
  tags,
  pending,
  onChange,
  onPendingChange,
}: {
  tags: readonly string[];
  pending: string;
  onChange: (tags: string[]) => void;
  onPendingChange: (text: string) => void;
}) {
  const id = useId();
  const hintId = useId();
  const commit = (text: string) => {
    onChange(pendingTags(tags, text));
    onPendingChange('');
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter' && event.key !== ',') return;
    event.preventDefault();
    commit(pending);
  };
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-300">
        Tags
      </label>
      {tags.length > 0 && (
        <ul aria-label="Tags of this entry" className="flex flex-wrap gap-2">
          {tags.map((tag) => (
            <li key={tag} className="flex items-center gap-1 rounded-full bg-slate-700 px-3 py-1 text-sm text-slate-100">
              {tag}
              <button
                type="button"
                aria-label={`Remove tag ${tag}`}
                className="rounded-full px-1 text-slate-300 hover:text-white"
                onClick={() => onChange(tags.filter((other) => other !== tag))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <input
        id={id}
        autoComplete="off"
        value={pending}
        maxLength={DOCUMENT_LIMITS.tag + 1}
        aria-describedby={hintId}
        onKeyDown={onKeyDown}
        onChange={(event) => {
          const text = event.target.value;
          if (text.includes(',')) {
            const parts = text.split(',');
            onChange(pendingTags(tags, parts.slice(0, -1).join(',')));
            onPendingChange(parts.at(-1) ?? '');
          } else onPendingChange(text);
        }}
        className={inputClass}
      />
      <p id={hintId} className="text-xs text-slate-400">
        Type a tag, then a comma or Enter.
      </p>
    </div>
  );
}

/** `tags` with every comma-separated tag of `text` added (trimmed, no blanks, no repeats ignoring case). */
export function pendingTags(tags: readonly string[], text: string): string[] {
  const result = [...tags];
  for (const raw of text.split(',')) {
    const tag = raw.trim().slice(0, DOCUMENT_LIMITS.tag);
    if (tag !== '' && !result.some((other) => other.toLowerCase() === tag.toLowerCase())) result.push(tag);
  }
  return result;
}

/** The folder select, with a way to make a new folder without leaving the form. */
export function FolderPicker({
  folders,
  folderId,
  onChange,
  onAddFolder,
}: {
  folders: readonly OpenFolder[];
  folderId: string | null;
  onChange: (folderId: string | null) => void;
  onAddFolder?: (name: string) => Promise<{ ok: true; folder: OpenFolder } | { ok: false; message: string }>;
}) {
  const selectId = useId();
  const errorId = useId();
  const [adding, setAdding] = useState(false);
  const nameBox = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (adding) nameBox.current?.querySelector('input')?.focus();
  }, [adding]);
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const sorted = [...folders].sort((a, b) => a.name.localeCompare(b.name));
  // An entry may name a folder deleted elsewhere: it is then in no folder.
  const value = folderId !== null && folders.some((folder) => folder.id === folderId) ? folderId : '';

  const create = async () => {
    if (!onAddFolder || busy) return;
    setBusy(true);
    const result = await onAddFolder(name);
    setBusy(false);
    if (!result.ok) {
      setError(result.message);
      return;
    }
    onChange(result.folder.id);
    setAdding(false);
    setName('');
    setError(undefined);
  };

  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={selectId} className="text-sm font-medium text-slate-300">
        Folder
      </label>
      <div className="flex items-center gap-2">
        <select
          id={selectId}
          value={value}
          onChange={(event) => onChange(event.target.value === '' ? null : event.target.value)}
          className={inputClass}
        >
          <option value="">No folder</option>
          {sorted.map((folder) => (
            <option key={folder.id} value={folder.id}>
              {folder.name}
            </option>
          ))}
        </select>
        {onAddFolder && !adding && (
          <button type="button" className={`${smallButton} whitespace-nowrap`} onClick={() => setAdding(true)}>
            New folder
          </button>
        )}
      </div>
      {adding && (
        <div className="flex items-end gap-2">
          <div ref={nameBox} className="flex-1">
            <TextInput
              label="New folder name"
              autoComplete="off"
              value={name}
              aria-invalid={error !== undefined}
              aria-describedby={error !== undefined ? errorId : undefined}
              onChange={(event) => setName(event.target.value)}
              onKeyDown={(event) => {
                // Enter makes the folder; it must not submit the entry's form.
                if (event.key === 'Enter') {
                  event.preventDefault();
                  void create();
                }
              }}
            />
          </div>
          <button type="button" className={smallButton} disabled={busy} onClick={() => void create()}>
            Create folder
          </button>
          <button
            type="button"
            className={smallButton}
            onClick={() => {
              setAdding(false);
              setError(undefined);
            }}
          >
            Cancel new folder
          </button>
        </div>
      )}
      <FieldError id={errorId} message={error} />
    </div>
  );
}
