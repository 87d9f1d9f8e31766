import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Dialog } from '@/components/ui/dialog';
import { buttonSecondary } from '@/components/ui/styles';
import type { EntryActions, OpenVersion } from '../lib/entry-action-types';
import { changedParts, PART_LABELS } from '@lockit/client-core';
import type { EntryDraft, OpenEntry } from '@lockit/client-core';

interface HistoryPanelProps {
  entry: OpenEntry;
  actions: Pick<EntryActions, 'history' | 'restoreVersion' | 'openDraft'>;
  onClose: () => void;
}

type Loaded =
  | { status: 'loading' }
  | { status: 'failed'; message: string }
  | { status: 'ready'; versions: OpenVersion[]; current: EntryDraft | null };

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
function when(iso: string): string {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? iso : dateFormat.format(time);
}

/**
 * An entry's earlier versions, fetched when this opens (never with the list), newest first:
 * when each was saved, which fields the next version changed, its password on request, and
 * "Restore this version" (a normal save of its content on the current revision, so the
 * current version goes into the history in turn).
 */
export function HistoryPanel({ entry, actions, onClose }: HistoryPanelProps) {
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const [revealed, setRevealed] = useState<ReadonlySet<number>>(() => new Set());
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState('');

  // The actions object changes with the conflict state; the history is fetched once per entry shown.
  const actionsRef = useRef(actions);
  useLayoutEffect(() => {
    actionsRef.current = actions;
  }, [actions]);

  useEffect(() => {
    let live = true;
    const { history, openDraft } = actionsRef.current;
    void Promise.all([history(entry), openDraft(entry).catch(() => null)]).then(([result, current]) => {
      if (!live) return;
      setLoaded(
        result.ok ? { status: 'ready', versions: result.versions, current } : { status: 'failed', message: result.message },
      );
    });
    return () => {
      live = false;
    };
  }, [entry]);

  const restore = async (version: OpenVersion) => {
    if (busy) return;
    setBusy(true);
    setMessage('');
    const result = await actions.restoreVersion(entry, version);
    setBusy(false);
    if (result.ok) onClose();
    else setMessage(result.message);
  };

  const toggle = (revision: number) =>
    setRevealed((current) => {
      const next = new Set(current);
      if (!next.delete(revision)) next.add(revision);
      return next;
    });

  return (
    <Dialog title={`History of ${entry.serviceName}`} onClose={onClose} size="wide">
      <div className="flex max-h-[70vh] flex-col gap-3 overflow-y-auto">
        {loaded.status === 'loading' && <p role="status">Loading earlier versions…</p>}
        {loaded.status === 'failed' && <p role="status">{loaded.message}</p>}
        {loaded.status === 'ready' && loaded.versions.length === 0 && <p className="text-slate-300">No earlier versions yet.</p>}
        {loaded.status === 'ready' && loaded.versions.length > 0 && (
          <ol aria-label="Earlier versions" className="flex flex-col gap-3">
            {loaded.versions.map((version, index) => {
              const next = index === 0 ? loaded.current : (loaded.versions[index - 1]?.draft ?? null);
              const shown = revealed.has(version.revision);
              return (
                <li
                  key={version.revision}
                  aria-label={`Version saved ${when(version.savedAt)}`}
                  className="flex flex-col gap-2 rounded-lg border border-slate-800 p-3 text-sm text-slate-200"
                >
                  <p className="font-medium text-white">Saved {when(version.savedAt)}</p>
                  {version.draft === null ? (
                    <p className="text-amber-200">This version could not be decrypted. It may have been changed on the server.</p>
                  ) : (
                    <>
                      <p>{changeText(version.draft, next)}</p>
                      {version.draft.files !== undefined && version.draft.files.length > 0 && (
                        <p>Files: {version.draft.files.map((file) => file.name).join(', ')}</p>
                      )}
                      {version.draft.type === 'login' && version.draft.password !== '' && (
                        <div className="flex flex-wrap items-center gap-2">
                          <span>Password:</span>
                          <span className="font-mono">{shown ? version.draft.password : '••••••••'}</span>
                          <button
                            type="button"
                            className="text-cyan-300 hover:underline"
                            aria-pressed={shown}
                            onClick={() => toggle(version.revision)}
                          >
                            {shown ? 'Hide password' : 'Show password'}
                          </button>
                        </div>
                      )}
                      <button
                        type="button"
                        className={`${buttonSecondary} self-start px-3 py-1.5 text-sm`}
                        disabled={busy}
                        onClick={() => void restore(version)}
                      >
                        Restore this version
                      </button>
                    </>
                  )}
                </li>
              );
            })}
          </ol>
        )}
      </div>
      <div className="mt-4 flex justify-end">
        <button type="button" className={buttonSecondary} onClick={onClose}>
          Close
        </button>
      </div>
      <p role="status" className="mt-2 min-h-5 text-sm text-slate-300">
        {busy ? 'Restoring…' : message}
      </p>
    </Dialog>
  );
}

/** What the version after this one changed, by field name. */
function changeText(version: EntryDraft, next: EntryDraft | null): string {
  if (next === null) return 'The next version could not be compared.';
  const parts: string[] = changedParts(version, next).map((part) => PART_LABELS[part]);
  // Files are not a part the form edits (or a conflict picks), but a version keeps its own.
  if (fileListText(version) !== fileListText(next)) parts.push('Files');
  if (parts.length === 0) return 'The next save changed no field (it moved the entry to or from Trash).';
  return `Changed after this version: ${parts.join(', ')}.`;
}

const fileListText = (draft: EntryDraft) => JSON.stringify((draft.files ?? []).map((file) => [file.id, file.name]));
