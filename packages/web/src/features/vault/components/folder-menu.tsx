import { useEffect, useId, useRef, useState } from 'react';

interface FolderMenuProps {
  /** The folder's whole path, naming the menu for a screen reader ("Work/Banking"). */
  path: string;
  onRename: () => void;
  /** Absent for a folder only implied by deeper names: there is no folder to delete. */
  onDelete?: () => void;
}

const menuButton =
  'rounded px-2 py-1 text-left text-sm text-slate-200 hover:bg-slate-700 hover:text-white focus-visible:outline focus-visible:outline-2 focus-visible:outline-cyan-400';

/**
 * A folder's Rename and Delete, behind a "…" button beside it in the filter column. A
 * disclosure (a button that shows and hides its buttons, aria-expanded), not an ARIA menu:
 * Tab reaches its buttons like any others, and Escape closes it, back on the "…" button.
 * Choosing an action puts focus back on the "…" button before the dialog opens, so the
 * dialog gives it back there when it closes.
 */
export function FolderMenu({ path, onRename, onDelete }: FolderMenuProps) {
  const [open, setOpen] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  const listId = useId();

  // Native, and stopped here: the phone drawer around this closes on an Escape that reaches it.
  useEffect(() => {
    const box = boxRef.current;
    if (!open || !box) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.stopPropagation();
      setOpen(false);
      toggleRef.current?.focus();
    };
    box.addEventListener('keydown', onKeyDown);
    return () => box.removeEventListener('keydown', onKeyDown);
  }, [open]);

  const choose = (action: () => void) => {
    setOpen(false);
    toggleRef.current?.focus();
    action();
  };

  return (
    <div ref={boxRef} className="relative shrink-0">
      <button
        ref={toggleRef}
        type="button"
        aria-label={`Folder actions: ${path}`}
        aria-expanded={open}
        aria-controls={listId}
        className="rounded px-2 py-1 text-sm leading-none text-slate-300 hover:bg-slate-800 hover:text-white focus-visible:outline focus-visible:outline-2 focus-visible:outline-cyan-400"
        onClick={() => setOpen((was) => !was)}
      >
        …
      </button>
      <div
        id={listId}
        hidden={!open}
        className="absolute top-full right-0 z-10 mt-1 flex w-32 flex-col rounded-lg border border-slate-700 bg-slate-800 p-1 shadow-xl"
      >
        <button type="button" className={menuButton} aria-label={`Rename folder ${path}`} onClick={() => choose(onRename)}>
          Rename
        </button>
        {onDelete && (
          <button type="button" className={menuButton} aria-label={`Delete folder ${path}`} onClick={() => choose(onDelete)}>
            Delete
          </button>
        )}
      </div>
    </div>
  );
}
