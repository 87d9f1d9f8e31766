import type { ReactNode } from 'react';
import './row-icons.css';

/** The item view's icon buttons (reveal, copy, open): row-icons.css draws `data-icon`. */
export const iconButton = [
  'row-icon shrink-0 rounded-lg p-2 text-slate-300 transition hover:bg-slate-800 hover:text-white',
  'focus-visible:outline focus-visible:outline-2 focus-visible:outline-cyan-400',
].join(' ');
const MASK = '••••••••';

/**
 * Makes one field of the item view (a DetailField wired to the pane's reveal and copy state):
 * the sections build their fields through it.
 */
export type FieldOf = (
  key: string,
  label: string,
  value: string,
  options?: { hidden?: boolean; what?: string; mono?: boolean },
) => ReactNode;

/** One field: a label over its value, the value's buttons beside it (a dl's div > dt + dd). */
export function FieldBox({ label, children, buttons }: { label: string; children: ReactNode; buttons?: ReactNode }) {
  return (
    <div className="px-4 py-3">
      <dt className="text-xs font-medium text-slate-400">{label}</dt>
      <dd className="flex items-center gap-2 text-slate-100">
        <div className="min-w-0 flex-1">{children}</div>
        {buttons && <div className="-my-1 flex shrink-0 gap-0.5">{buttons}</div>}
      </dd>
    </div>
  );
}

export function StaticField({ label, value }: { label: string; value: string }) {
  return <FieldBox label={label}>{value}</FieldBox>;
}

export interface DetailFieldProps {
  label: string;
  value: string;
  hidden: boolean;
  revealed: boolean;
  copied: boolean;
  mono: boolean;
  onToggle: () => void;
  onCopy: () => void;
}

export function DetailField({ label, value, hidden, revealed, copied, mono, onToggle, onCopy }: DetailFieldProps) {
  const shown = !hidden || revealed;
  const name = label.toLowerCase();
  return (
    <FieldBox
      label={label}
      buttons={
        <>
          {hidden && (
            <button
              type="button"
              className={iconButton}
              aria-label={`${revealed ? 'Hide' : 'Show'} ${name}`}
              aria-pressed={revealed}
              data-icon={revealed ? 'eye-off' : 'eye'}
              onClick={onToggle}
            />
          )}
          <button
            type="button"
            className={iconButton}
            aria-label={copied ? `${label} copied` : `Copy ${name}`}
            data-icon={copied ? 'check' : 'copy'}
            onClick={onCopy}
          />
        </>
      }
    >
      <span className={`block max-h-40 overflow-y-auto break-all ${mono ? 'font-mono text-sm' : ''}`}>
        {shown ? value : MASK}
      </span>
    </FieldBox>
  );
}

export function NotesField({ notes, copied, onCopy }: { notes: string; copied: boolean; onCopy: () => void }) {
  return (
    <FieldBox
      label="Notes"
      buttons={
        <button
          type="button"
          className={iconButton}
          aria-label={copied ? 'Notes copied' : 'Copy notes'}
          data-icon={copied ? 'check' : 'copy'}
          onClick={onCopy}
        />
      }
    >
      <span className="block max-h-60 overflow-y-auto text-sm break-words whitespace-pre-wrap">{notes}</span>
    </FieldBox>
  );
}
