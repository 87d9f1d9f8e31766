import { useState } from 'react';
import { Dialog } from '@/components/ui/dialog';
import { buttonDanger, buttonPrimary, buttonSecondary } from '@/components/ui/styles';
import type { ConflictChoice, EntryConflict } from '../lib/entry-action-types';
import { CHANGED_ELSEWHERE } from '../lib/action-messages';
import { DRAFT_PARTS, mergeDrafts, PART_LABELS, partText, samePart, SECRET_PARTS, type DraftPart } from '@lockit/client-core';
import type { EntryDraft, OpenFolder } from '@lockit/client-core';

export const CONFLICT_TITLE = 'Changed elsewhere';

interface ConflictDialogProps {
  conflict: EntryConflict;
  /** To name folders in the comparison. */
  folders?: readonly OpenFolder[];
}

type Picks = Partial<Record<DraftPart, 'mine' | 'theirs'>>;

/**
 * A save or a delete met a newer version saved elsewhere (another tab or device). Shows both
 * versions side by side, field by field, and lets the person choose: keep mine, use theirs,
 * or merge (pick per field). Nothing is overwritten or deleted without that choice; Escape or
 * Cancel keeps the form (a save) or the entry (a delete) as they were.
 */
export function ConflictDialog({ conflict, folders = [] }: ConflictDialogProps) {
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState('');
  const [reveal, setReveal] = useState(false);
  const [merging, setMerging] = useState(false);
  const [picks, setPicks] = useState<Picks>({});
  const folderName = (id: string) => folders.find((folder) => folder.id === id)?.name;
  const { mine, theirsDraft } = conflict;

  const choose = async (choice: ConflictChoice) => {
    if (busy) return;
    setBusy(true);
    setMessage('');
    const result = await conflict.resolve(choice);
    // On success this dialog is gone (or shows a newer conflict); on failure it says why.
    setBusy(false);
    if (!result.ok) setMessage(result.message);
  };
  const cancel = () => void choose({ kind: 'cancel' });

  const parts = DRAFT_PARTS.filter((part) => shownPart(part, mine, theirsDraft));
  const differing = mine === null ? [] : parts.filter((part) => !samePart(mine, theirsDraft, part));
  const hasSecrets = parts.some((part) => isSecret(part, mine ?? theirsDraft) || isSecret(part, theirsDraft));

  return (
    <Dialog title={CONFLICT_TITLE} onClose={cancel} size="wide">
      <div className="flex max-h-[70vh] flex-col gap-4 overflow-y-auto">
        <p className="text-slate-200">
          {CHANGED_ELSEWHERE}{' '}
          {conflict.kind === 'save'
            ? 'Compare your version with the one saved elsewhere, then choose what to keep. The version you do not keep stays in the history.'
            : 'Move the newer version to Trash anyway, or keep it?'}
        </p>
        {hasSecrets && (
          <button
            type="button"
            className={`${buttonSecondary} self-start px-3 py-1.5 text-sm`}
            aria-pressed={reveal}
            onClick={() => setReveal((on) => !on)}
          >
            {reveal ? 'Hide secrets' : 'Show secrets'}
          </button>
        )}
        <table className="w-full table-fixed border-collapse text-left text-sm">
          <caption className="sr-only">Both versions, field by field</caption>
          <thead>
            <tr className="text-slate-400">
              <th scope="col" className="w-32 py-1 pr-2 font-medium">
                Field
              </th>
              {mine !== null && (
                <th scope="col" className="py-1 pr-2 font-medium">
                  Your version
                </th>
              )}
              <th scope="col" className="py-1 pr-2 font-medium">
                Saved elsewhere
              </th>
            </tr>
          </thead>
          <tbody>
            {parts.map((part) => {
              const differs = differing.includes(part);
              return (
                <tr key={part} className={`border-t border-slate-800 align-top ${differs ? 'bg-amber-950/40' : ''}`}>
                  <th scope="row" className="py-2 pr-2 font-medium text-slate-300">
                    {PART_LABELS[part]}
                    {differs && <span className="block text-xs font-normal text-amber-300">differs</span>}
                  </th>
                  {mine !== null && (
                    <td className="py-2 pr-2 break-words whitespace-pre-wrap text-slate-100">
                      <Value text={partText(mine, part, { reveal, folderName })} />
                      {merging && differs && <Pick part={part} side="mine" picks={picks} onPick={setPicks} />}
                    </td>
                  )}
                  <td className="py-2 pr-2 break-words whitespace-pre-wrap text-slate-100">
                    <Value text={partText(theirsDraft, part, { reveal, folderName })} />
                    {merging && differs && <Pick part={part} side="theirs" picks={picks} onPick={setPicks} />}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <div className="mt-4 flex flex-wrap justify-end gap-3">
        {conflict.kind === 'delete' ? (
          <>
            <button type="button" className={buttonDanger} disabled={busy} onClick={() => void choose({ kind: 'mine' })}>
              Move to Trash anyway
            </button>
            <button type="button" className={buttonSecondary} disabled={busy} onClick={() => void choose({ kind: 'theirs' })}>
              Keep it
            </button>
          </>
        ) : merging && mine !== null ? (
          <>
            <button
              type="button"
              className={buttonPrimary}
              disabled={busy}
              onClick={() => void choose({ kind: 'merge', draft: mergeDrafts(mine, theirsDraft, picks) })}
            >
              Save merged version
            </button>
            <button type="button" className={buttonSecondary} disabled={busy} onClick={() => setMerging(false)}>
              Back
            </button>
          </>
        ) : (
          <>
            <button type="button" className={buttonPrimary} disabled={busy} onClick={() => void choose({ kind: 'mine' })}>
              Keep mine
            </button>
            <button type="button" className={buttonSecondary} disabled={busy} onClick={() => void choose({ kind: 'theirs' })}>
              Use theirs
            </button>
            {differing.length > 1 && (
              <button type="button" className={buttonSecondary} disabled={busy} onClick={() => setMerging(true)}>
                Merge
              </button>
            )}
          </>
        )}
        <button type="button" className={buttonSecondary} disabled={busy} onClick={cancel}>
          Cancel
        </button>
      </div>
      <p role="status" className="mt-2 min-h-5 text-sm text-slate-300">
        {busy ? 'Saving…' : message}
      </p>
    </Dialog>
  );
}

function Value({ text }: { text: string }) {
  return text === '' ? <span className="text-slate-400">(empty)</span> : <>{text}</>;
}

/** One side's radio of a differing field, in merge mode (mine is picked until theirs is). */
function Pick({
  part,
  side,
  picks,
  onPick,
}: {
  part: DraftPart;
  side: 'mine' | 'theirs';
  picks: Picks;
  onPick: (update: (picks: Picks) => Picks) => void;
}) {
  const picked = (picks[part] ?? 'mine') === side;
  const label = `${side === 'mine' ? 'Keep my' : 'Use their'} ${PART_LABELS[part].toLowerCase()}`;
  return (
    <label className="mt-1 flex items-center gap-2 text-xs text-cyan-200">
      <input
        type="radio"
        name={`merge-${part}`}
        checked={picked}
        onChange={() => onPick((current) => ({ ...current, [part]: side }))}
      />
      {label}
    </label>
  );
}

/** A part is shown when either side uses it (a login's URLs are not shown for two notes). */
function shownPart(part: DraftPart, mine: EntryDraft | null, theirs: EntryDraft): boolean {
  const uses = (draft: EntryDraft) => {
    if (part === 'username' || part === 'password' || part === 'urls' || part === 'totp') return draft.type === 'login';
    if (part === 'card') return draft.type === 'card';
    if (part === 'identity') return draft.type === 'identity';
    if (part === 'sshKey') return draft.type === 'sshKey';
    return true;
  };
  return uses(theirs) || (mine !== null && uses(mine));
}

function isSecret(part: DraftPart, draft: EntryDraft): boolean {
  if (SECRET_PARTS.has(part)) return true;
  if (part === 'fields') return draft.fields.some((field) => field.kind === 'hidden');
  return (
    (part === 'card' && draft.card !== null) ||
    (part === 'identity' && draft.identity !== null) ||
    (part === 'sshKey' && (draft.sshKey ?? null) !== null)
  );
}
