import { memo } from 'react';
import { DAMAGE_MESSAGES, type DamagedItem, type OpenItem, type VaultItem } from '../lib/vault-item';
import './row-icons.css';

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

/** The icon is the button's own ::before (row-icons.css), named by `data-icon`. */
const iconButton = [
  'row-icon rounded-lg p-2 text-slate-300 transition hover:bg-slate-800 hover:text-white',
  'focus-visible:outline focus-visible:outline-2 focus-visible:outline-cyan-400',
].join(' ');

export const nameIdOf = (id: string) => `entry-name-${id}`;

/**
 * Every row is at least `min-h-18` (4.5rem) tall, a little more than its one line of content
 * needs, so one-line rows all have this exact height: the list's estimate (entry-list.tsx).
 */
export const ROW_MIN_HEIGHT_PX = 72;
const rowBox = 'min-h-18 border-b border-slate-800 px-4 py-3';

/**
 * The classes of the list item that holds a row's content: the list item is the row's box,
 * so a row mounts no wrapper element of its own (a search key mounts a screenful of rows).
 */
export const rowClassOf = (item: VaultItem) =>
  item.status === 'damaged'
    ? `flex items-center gap-4 bg-amber-950/30 ${rowBox}`
    : `flex flex-wrap items-center gap-x-4 gap-y-2 sm:flex-nowrap ${rowBox}`;

/** A row's content, laid out by the list item's classes (rowClassOf). */
export const EntryRow = memo(function EntryRow({ item, password, copied, actions }: EntryRowProps) {
  if (item.status === 'damaged') return <DamagedRow item={item} actions={actions} />;
  const revealed = password !== undefined;
  const service = item.serviceName;
  return (
    <>
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
          data-icon={revealed ? 'eye-off' : 'eye'}
          onClick={() => actions.toggleReveal(item, revealed)}
        />
        <button
          type="button"
          className={iconButton}
          aria-label={copied ? `Password for ${service} copied` : `Copy password for ${service}`}
          data-icon={copied ? 'check' : 'copy'}
          onClick={() => actions.copy(item, password)}
        />
        <button
          type="button"
          className={iconButton}
          aria-label={`Edit ${service}`}
          data-icon="edit"
          onClick={() => actions.edit(item)}
        />
        <button
          type="button"
          className={iconButton}
          aria-label={`Delete ${service}`}
          data-icon="trash"
          onClick={() => actions.remove(item)}
        />
      </div>
    </>
  );
});

/** Nothing of a damaged entry is shown, but it can be deleted. */
function DamagedRow({ item, actions }: { item: DamagedItem; actions: RowActions }) {
  return (
    <>
      <div className="min-w-0 flex-1">
        <p id={nameIdOf(item.id)} className="font-semibold text-amber-200">
          Damaged entry
        </p>
        <p className="text-sm text-amber-100/80">{DAMAGE_MESSAGES[item.reason]}</p>
      </div>
      <button
        type="button"
        className={iconButton}
        aria-label="Delete damaged entry"
        data-icon="trash"
        onClick={() => actions.remove(item)}
      />
    </>
  );
}
