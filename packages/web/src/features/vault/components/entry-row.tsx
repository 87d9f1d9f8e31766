import { memo } from 'react';
import { monogramOf } from '../lib/monogram';
import { PendingBadge } from './pending-sync';
import { DAMAGE_MESSAGES, type DamagedEntry, type OpenEntry, type VaultEntry } from '@lockit/client-core';
import './row-icons.css';

/** What a row's copy buttons can put on the clipboard; the one copied shows a check for 2 s. */
export type RowCopyField = 'password' | 'username' | 'code';

/** Stable callbacks shared by every row, so a row re-renders only when its own data changes. */
export interface RowActions {
  /** Opens the item view (a click on the name, or Enter on it). */
  open: (entry: VaultEntry) => void;
  toggleReveal: (entry: OpenEntry, revealed: boolean) => void;
  copy: (entry: OpenEntry, field: RowCopyField, revealedPassword: string | undefined) => void;
  edit: (entry: OpenEntry) => void;
  /** Asks, then moves the entry to Trash. */
  remove: (entry: VaultEntry) => void;
  /** Trash only. */
  restore: (entry: VaultEntry) => void;
  /** Trash only: asks, then deletes the entry for good. */
  purge: (entry: VaultEntry) => void;
}

interface EntryRowProps {
  entry: VaultEntry;
  /** The decrypted password while revealed; undefined while masked. */
  password: string | undefined;
  /** The field copied in the last 2 s, if any. */
  copied: RowCopyField | undefined;
  /** The row of the list's roving focus: its name is the one Tab reaches. */
  tabbable: boolean;
  /** The list sits beside the item view (wide screens): the row takes two lines there (rowClassOf). */
  besideItemView: boolean;
  actions: RowActions;
}

/** The same dots whatever the password, so the mask does not tell its length. */
const MASK = '••••••••';

/** The icon is the button's own ::before (row-icons.css), named by `data-icon`. */
const iconButton = [
  'row-icon rounded-lg p-1.5 text-slate-300 transition hover:bg-slate-800 hover:text-white sm:p-2',
  'focus-visible:outline focus-visible:outline-2 focus-visible:outline-cyan-400',
].join(' ');

export const nameIdOf = (id: string) => `entry-name-${id}`;

/** Marks the element of a row that the list's arrow keys move focus to. */
export const ROW_FOCUS_ATTRIBUTE = 'data-row-focus';

/**
 * Every row is at least `min-h-18` (4.5rem) tall, a little more than its one line of content
 * needs, so one-line rows all have this exact height: the list's estimate (entry-list.tsx).
 */
export const ROW_MIN_HEIGHT_PX = 72;
const rowBox = 'min-h-18 border-b border-slate-800 px-4 py-3';

/**
 * The classes of the list item that holds a row's content: the list item is the row's box,
 * so a row mounts no wrapper element of its own (scrolling mounts a screenful of rows).
 * Below 640 px, and on a wide screen while the item view sits beside the list
 * (`besideItemView`: the list is then about 500 px wide, and one line would leave the name
 * some ten characters), a row takes two lines: the whole name, then password and buttons. A
 * revealed password takes a line of its own, scrolling inside the row past five lines: however
 * long it is, the row's buttons stay in the list box. Below the xl width the item view covers
 * the list instead, so the list keeps its one-line rows there.
 */
export const rowClassOf = (entry: VaultEntry, besideItemView = false) =>
  entry.status === 'damaged'
    ? `flex items-center gap-4 bg-amber-950/30 ${rowBox}`
    : `flex flex-wrap items-center gap-x-3 gap-y-2 sm:flex-nowrap ${besideItemView ? 'xl:flex-wrap' : ''} ${rowBox}`;

/** The classes of a row's parts while its list sits beside the item view: the two-line layout at xl. */
const BESIDE = {
  name: 'xl:basis-[calc(100%-3.25rem)]',
  password: 'xl:basis-16',
  revealed: 'xl:basis-full',
  buttons: 'xl:min-w-0',
};

/** A row's content, laid out by the list item's classes (rowClassOf). */
export const EntryRow = memo(function EntryRow({ entry, password, copied, tabbable, besideItemView, actions }: EntryRowProps) {
  if (entry.status === 'damaged') return <DamagedRow entry={entry} tabbable={tabbable} actions={actions} />;
  const revealed = password !== undefined;
  const service = entry.serviceName;
  const monogram = monogramOf(service, entry.urls[0]);
  const trashed = entry.deletedAt !== null;
  // Only the active row's controls are Tab stops; the arrow keys move between rows.
  const tabIndex = tabbable ? 0 : -1;
  return (
    <>
      <span
        aria-hidden="true"
        className="flex size-10 shrink-0 items-center justify-center rounded-full text-sm font-bold text-white"
        style={{ backgroundColor: monogramColour(monogram.hue) }}
      >
        {monogram.letters}
      </span>
      {/* On a phone, or beside the item view, the name takes the first line whole; the rest wraps under it. */}
      <div className={`min-w-0 flex-1 basis-[calc(100%-3.25rem)] sm:basis-40 ${besideItemView ? BESIDE.name : ''}`}>
        <button
          type="button"
          id={nameIdOf(entry.id)}
          {...{ [ROW_FOCUS_ATTRIBUTE]: '' }}
          tabIndex={tabIndex}
          className="block max-w-full truncate rounded text-left font-semibold text-white hover:underline focus-visible:outline focus-visible:outline-2 focus-visible:outline-cyan-400"
          onClick={() => actions.open(entry)}
        >
          {service}
        </button>
        <p className="truncate text-sm text-slate-400">
          {entry.username}
          <PendingBadge id={entry.id} />
        </p>
      </div>
      {trashed ? (
        <TrashButtons entry={entry} name={service} tabIndex={tabIndex} actions={actions} />
      ) : (
        <>
          {/* A long revealed password scrolls inside its row; a scrolling region must be reachable by keyboard. */}
          <p
            className={`min-w-0 flex-1 font-mono text-sm break-all text-slate-200 ${
              revealed ? 'max-h-24 basis-full overflow-y-auto sm:basis-32' : 'basis-16 sm:basis-32'
            } ${besideItemView ? (revealed ? BESIDE.revealed : BESIDE.password) : ''}`}
            {...(revealed ? { tabIndex: 0 } : {})}
          >
            {revealed ? password : MASK}
          </p>
          {/* From 640 px (but beside the item view) a row is one line: the buttons take the width of six, so every row's password lines up. */}
          <div className={`flex shrink-0 justify-end gap-0.5 sm:min-w-[14.125rem] ${besideItemView ? BESIDE.buttons : ''}`}>
            <button
              type="button"
              tabIndex={tabIndex}
              className={iconButton}
              aria-label={`${revealed ? 'Hide' : 'Show'} password for ${service}`}
              aria-pressed={revealed}
              data-icon={revealed ? 'eye-off' : 'eye'}
              onClick={() => actions.toggleReveal(entry, revealed)}
            />
            <button
              type="button"
              tabIndex={tabIndex}
              className={iconButton}
              aria-label={copied === 'password' ? `Password for ${service} copied` : `Copy password for ${service}`}
              data-icon={copied === 'password' ? 'check' : 'copy'}
              onClick={() => actions.copy(entry, 'password', password)}
            />
            <button
              type="button"
              tabIndex={tabIndex}
              className={iconButton}
              aria-label={copied === 'username' ? `User name for ${service} copied` : `Copy user name for ${service}`}
              data-icon={copied === 'username' ? 'check' : 'user'}
              onClick={() => actions.copy(entry, 'username', undefined)}
            />
            {entry.hasTotp && (
              <button
                type="button"
                tabIndex={tabIndex}
                className={iconButton}
                aria-label={copied === 'code' ? `Code for ${service} copied` : `Copy code for ${service}`}
                data-icon={copied === 'code' ? 'check' : 'clock'}
                onClick={() => actions.copy(entry, 'code', undefined)}
              />
            )}
            <button
              type="button"
              tabIndex={tabIndex}
              className={iconButton}
              aria-label={`Edit ${service}`}
              data-icon="edit"
              onClick={() => actions.edit(entry)}
            />
            <button
              type="button"
              tabIndex={tabIndex}
              className={iconButton}
              aria-label={`Delete ${service}`}
              data-icon="trash"
              onClick={() => actions.remove(entry)}
            />
          </div>
        </>
      )}
    </>
  );
});

/** `focusTarget`: the row has no name to focus (a damaged entry), so Restore is the one arrows move to. */
function TrashButtons({
  entry,
  name,
  tabIndex,
  focusTarget = false,
  actions,
}: {
  entry: VaultEntry;
  name: string;
  tabIndex: number;
  focusTarget?: boolean;
  actions: RowActions;
}) {
  return (
    <div className="ml-auto flex shrink-0 gap-0.5">
      <button
        type="button"
        tabIndex={tabIndex}
        className={iconButton}
        aria-label={`Restore ${name}`}
        data-icon="restore"
        {...(focusTarget ? { [ROW_FOCUS_ATTRIBUTE]: '' } : {})}
        onClick={() => actions.restore(entry)}
      />
      <button
        type="button"
        tabIndex={tabIndex}
        className={iconButton}
        aria-label={`Delete ${name} forever`}
        data-icon="purge"
        onClick={() => actions.purge(entry)}
      />
    </div>
  );
}

/** Nothing of a damaged entry is shown, but it can be moved to Trash, and from there purged. */
function DamagedRow({ entry, tabbable, actions }: { entry: DamagedEntry; tabbable: boolean; actions: RowActions }) {
  const trashed = entry.deletedAt !== null;
  return (
    <>
      <div className="min-w-0 flex-1">
        <p id={nameIdOf(entry.id)} className="font-semibold text-amber-200">
          Damaged entry
        </p>
        <p className="text-sm text-amber-100/80">{DAMAGE_MESSAGES[entry.reason]}</p>
      </div>
      {trashed ? (
        <TrashButtons entry={entry} name="damaged entry" tabIndex={tabbable ? 0 : -1} focusTarget actions={actions} />
      ) : (
        <button
          type="button"
          className={iconButton}
          aria-label="Delete damaged entry"
          data-icon="trash"
          {...{ [ROW_FOCUS_ATTRIBUTE]: '' }}
          tabIndex={tabbable ? 0 : -1}
          onClick={() => actions.remove(entry)}
        />
      )}
    </>
  );
}

/**
 * The monogram's circle: the same OKLCH lightness for every hue, so white letters keep the
 * same contrast on all of them: 6.6:1 at the worst hue (cyan), 8:1 at best, at 45 % lightness.
 */
export const monogramColour = (hue: number) => `oklch(45% 0.12 ${hue})`;
