import { useId, useMemo, useState, type FormEvent } from 'react';
import { folderPath } from '../lib/entry-filter';
import { draftOf, normaliseTags } from '@lockit/client-core';
import type { EntryDraft, EntrySecrets, OpenEntry, OpenFolder } from '@lockit/client-core';

const smallButton =
  'rounded-lg border border-slate-600 px-3 py-1.5 text-sm font-semibold text-slate-100 hover:bg-slate-800 disabled:opacity-60';

/** Folder and tags: each change saves the entry (secrets included, as an edit would). */
export function Organise({
  entry,
  folders,
  secrets,
  save,
}: {
  entry: OpenEntry;
  folders: readonly OpenFolder[];
  secrets: EntrySecrets | null;
  save: (entry: OpenEntry, draft: EntryDraft) => Promise<unknown>;
}) {
  const folderSelectId = useId();
  const tagInputId = useId();
  const [tag, setTag] = useState('');
  const [saving, setSaving] = useState(false);
  const sortedFolders = useMemo(
    () =>
      folders.map((folder) => ({ id: folder.id, path: folderPath(folder.name) })).sort((a, b) => a.path.localeCompare(b.path)),
    [folders],
  );
  const ready = secrets !== null && !saving;

  const saveWith = async (change: Partial<EntryDraft>) => {
    if (secrets === null) return;
    setSaving(true);
    try {
      await save(entry, { ...draftOf(entry, secrets), ...change });
    } finally {
      setSaving(false);
    }
  };

  const addTag = async (event: FormEvent) => {
    event.preventDefault();
    const next = normaliseTags([...entry.tags, tag]);
    if (next.length === entry.tags.length) {
      setTag('');
      return;
    }
    await saveWith({ tags: next });
    setTag('');
  };

  const knownFolder = entry.folderId !== null && folders.some((folder) => folder.id === entry.folderId);
  return (
    <div className="flex flex-col gap-3 rounded-xl border border-slate-800 p-4">
      <div className="flex flex-col gap-1">
        <label htmlFor={folderSelectId} className="text-sm font-medium text-slate-300">
          Folder
        </label>
        <select
          id={folderSelectId}
          value={knownFolder ? (entry.folderId ?? '') : ''}
          disabled={!ready}
          onChange={(event) => void saveWith({ folderId: event.target.value === '' ? null : event.target.value })}
          className="rounded-lg border border-slate-700 bg-slate-800 px-3 py-2 text-white outline-none focus:border-cyan-400 disabled:opacity-60"
        >
          <option value="">No folder</option>
          {sortedFolders.map((folder) => (
            <option key={folder.id} value={folder.id}>
              {folder.path}
            </option>
          ))}
        </select>
      </div>
      <div className="flex flex-col gap-2">
        <span className="text-sm font-medium text-slate-300">Tags</span>
        {entry.tags.length > 0 && (
          <ul aria-label="Tags" className="flex flex-wrap gap-1.5">
            {entry.tags.map((name) => (
              <li
                key={name}
                className="flex items-center gap-1 rounded-full bg-slate-800 py-0.5 pr-1 pl-3 text-sm text-slate-100"
              >
                {name}
                <button
                  type="button"
                  aria-label={`Remove tag ${name}`}
                  disabled={!ready}
                  className="rounded-full px-1.5 text-slate-400 hover:bg-slate-700 hover:text-white disabled:opacity-60"
                  onClick={() => void saveWith({ tags: entry.tags.filter((other) => other !== name) })}
                >
                  ×
                </button>
              </li>
            ))}
          </ul>
        )}
        <form className="flex gap-2" onSubmit={(event) => void addTag(event)}>
          <label htmlFor={tagInputId} className="sr-only">
            New tag
          </label>
          <input
            id={tagInputId}
            value={tag}
            maxLength={60}
            placeholder="Add a tag"
            onChange={(event) => setTag(event.target.value)}
            className="min-w-0 flex-1 rounded-lg border border-slate-700 bg-slate-800 px-3 py-1.5 text-sm text-white outline-none focus:border-cyan-400"
          />
          <button type="submit" className={smallButton} disabled={!ready || tag.trim() === ''}>
            Add tag
          </button>
        </form>
      </div>
    </div>
  );
}
