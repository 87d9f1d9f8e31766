import { memo } from 'react';
import { DAMAGE_MESSAGES, type DamagedItem, type OpenItem, type VaultItem } from '../lib/vault-item';
import { CheckIcon, CopyIcon, EditIcon, EyeIcon, EyeOffIcon, TrashIcon } from './icons';

/** Stable callbacks shared by every row, so a row re-renders only when its own data changes. */
export interface RowActions {
  toggleReveal: (item: OpenItem, revealed: boolean) => void;
  copy: (item: OpenItem, revealedPassword: string | undefined) => void;
  edit: (item: OpenItem) => void;
  remove: (item: VaultItem) => void;
}

interface EntryRowProps {
  item: VaultItem;
  /** The decrypted password while revealed; undefined while masked. */
  password: string | undefined;
  copied: boolean;
  actions: RowActions;
}

/** The same dots whatever the password, so the mask does not tell its length. */
const MASK = '••••••••';

const iconButton = [
  'rounded-lg p-2 text-slate-300 transition hover:bg-slate-800 hover:text-white',
  'focus-visible:outline focus-visible:outline-2 focus-visible:outline-cyan-400',
].join(' ');

export const nameIdOf = (id: string) => `entry-name-${id}`;

/**
 * Every row is at least `min-h-18` (4.5rem) tall, a little more than its one line of content
 * needs, so one-line rows all have this exact height: the list's estimate (entry-list.tsx).
 */
export const ROW_MIN_HEIGHT_PX = 72;
const rowBox = 'min-h-18 border-b border-slate-800 px-4 py-3';

export const EntryRow = memo(function EntryRow({ item, password, copied, actions }: EntryRowProps) {
  if (item.status === 'damaged') return <DamagedRow item={item} actions={actions} />;
  const revealed = password !== undefined;
  const service = item.serviceName;
  return (
    <div className={`flex flex-wrap items-center gap-x-4 gap-y-2 sm:flex-nowrap ${rowBox}`}>
      <div className="min-w-0 flex-1 basis-40">
        <p id={nameIdOf(item.id)} className="truncate font-semibold text-white">
          {service}
        </p>
        <p className="truncate text-sm text-slate-400">{item.username}</p>
      </div>
      <p className="min-w-0 flex-1 basis-32 font-mono text-sm break-all text-slate-200">{revealed ? password : MASK}</p>
      <div className="flex shrink-0 gap-1">
        <button
          type="button"
          className={iconButton}
          aria-label={`${revealed ? 'Hide' : 'Show'} password for ${service}`}
          aria-pressed={revealed}
          onClick={() => actions.toggleReveal(item, revealed)}
        >
          {revealed ? <EyeOffIcon /> : <EyeIcon />}
        </button>
        <button
          type="button"
          className={iconButton}
          aria-label={copied ? `Password for ${service} copied` : `Copy password for ${service}`}
          onClick={() => actions.copy(item, password)}
        >
          {copied ? <CheckIcon /> : <CopyIcon />}
        </button>
        <button type="button" className={iconButton} aria-label={`Edit ${service}`} onClick={() => actions.edit(item)}>
          <EditIcon />
        </button>
        <button type="button" className={iconButton} aria-label={`Delete ${service}`} onClick={() => actions.remove(item)}>
          <TrashIcon />
        </button>
      </div>
    </div>
  );
});

/** Nothing of a damaged entry is shown, but it can be deleted. */
function DamagedRow({ item, actions }: { item: DamagedItem; actions: RowActions }) {
  return (
    <div className={`flex items-center gap-4 bg-amber-950/30 ${rowBox}`}>
      <div className="min-w-0 flex-1">
        <p id={nameIdOf(item.id)} className="font-semibold text-amber-200">
          Damaged entry
        </p>
        <p className="text-sm text-amber-100/80">{DAMAGE_MESSAGES[item.reason]}</p>
      </div>
      <button type="button" className={iconButton} aria-label="Delete damaged entry" onClick={() => actions.remove(item)}>
        <TrashIcon />
      </button>
    </div>
  );
}
