import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useUnlockedVault } from '@/lib/keyring-context';
import { buttonDanger, buttonPrimary, buttonSecondary } from '@/components/ui/styles';
import { folderPath } from '../lib/entry-filter';
import { monogramOf } from '../lib/monogram';
import type { EntryDraft, EntrySecrets, OpenedAttachment, OpenEntry, OpenFolder } from '@lockit/client-core';
import { usePublicConfig } from '@/api/get-public-config';
import { cardSections, identitySections } from './details-card-identity';
import { sshKeySections } from './details-ssh-key';
import { customFieldSections } from './details-custom-fields';
import { DetailField, iconButton, type FieldOf } from './details-field';
import { loginSections } from './details-login';
import { Organise } from './details-organise';
import { AttachmentsSection } from '../attachments/attachments-section';
import type { EntryActions } from '../lib/entry-action-types';
import { ShareSection } from '../share-links/share-section';
import { monogramColour } from './entry-row';
import { PendingBadge } from './pending-sync';
import './row-icons.css';

/** What the item view asks of the vault screen; each write reports its own failure there. */
export interface DetailsActions {
  /** Decrypts the entry's secrets; null when they did not open (the entry is then damaged). */
  openSecrets: (entry: OpenEntry) => Promise<EntrySecrets | null>;
  /** Copies `text`; `key` names the field for its check, `what` the thing copied for a log line. */
  copy: (entry: OpenEntry, key: string, text: string, what: string) => void;
  /** The entry was used (a web address opened): for the Last used sort. */
  used: (entry: OpenEntry) => void;
  setFavorite: (entry: OpenEntry, on: boolean) => Promise<unknown>;
  /** Saves the item with its file list changed (the item view's Files); says how it went. */
  setFiles: EntryActions['setFiles'];
  save: (entry: OpenEntry, draft: EntryDraft) => Promise<unknown>;
  edit: (entry: OpenEntry) => void;
  remove: (entry: OpenEntry) => void;
  restore: (entry: OpenEntry) => void;
  purge: (entry: OpenEntry) => void;
  history: (entry: OpenEntry) => void;
  close: () => void;
}

interface EntryDetailsPaneProps {
  entry: OpenEntry;
  folders: readonly OpenFolder[];
  /** Keys (see DetailsActions.copy) copied in the last 2 s. */
  copied: ReadonlySet<string>;
  actions: DetailsActions;
}

const TYPE_NAMES = { login: 'Login', note: 'Secure note', card: 'Card', identity: 'Identity', sshKey: 'SSH key' } as const;

/**
 * The item view: every field of one entry, a copy button per field, hidden values revealed on
 * demand, the live one-time code, links that open the web addresses in a new tab, and the
 * folder, tag and favourite controls. A pane beside the list on wide screens, a full-screen
 * sheet on phones (vault-view.tsx places it). The secrets (password, notes, details) are
 * decrypted when it opens and live only in its state: closing it drops them.
 */
export function EntryDetailsPane({ entry, folders, copied, actions }: EntryDetailsPaneProps) {
  const titleId = useId();
  const sectionRef = useRef<HTMLElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  // What opened, for which version of the entry: a newer version shows nothing until its own opens.
  const [opened, setOpened] = useState<{ entry: OpenEntry; secrets: EntrySecrets | null } | null>(null);
  const current = opened?.entry === entry ? opened : null;
  const secrets = current?.secrets ?? null;
  const failed = current !== null && current.secrets === null;
  // Per entry: the screen mounts one pane per entry id (key), so nothing revealed carries over.
  const [revealed, setRevealed] = useState<ReadonlySet<string>>(() => new Set());
  const trashed = entry.deletedAt !== null;
  const unlocked = useUnlockedVault();
  const vaultKey = unlocked?.vaultKey;
  // A file of this entry the person chose to share from the file list: the Share form opens with it.
  const [sharing, setSharing] = useState<{ file: OpenedAttachment; asked: number } | null>(null);
  const shareLinksOn = usePublicConfig().data?.shareLinks === true;

  // Focus moves in when the pane opens, so a keyboard or screen reader user lands on the entry.
  useEffect(() => headingRef.current?.focus(), []);

  // Escape anywhere in the pane closes it (dialogs stop their own Escape before it gets here).
  const { close } = actions;
  useEffect(() => {
    const section = sectionRef.current;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      event.stopPropagation();
      close();
    };
    section?.addEventListener('keydown', onKeyDown);
    return () => section?.removeEventListener('keydown', onKeyDown);
  }, [close]);

  // Each saved version has its own ciphertexts: open them again when the entry changes.
  const { openSecrets } = actions;
  useEffect(() => {
    let live = true;
    void openSecrets(entry).then((value) => {
      if (live) setOpened({ entry, secrets: value });
    });
    return () => {
      live = false;
    };
  }, [entry, openSecrets]);

  const toggle = (key: string) =>
    setRevealed((current) => {
      const next = new Set(current);
      if (!next.delete(key)) next.add(key);
      return next;
    });

  const copy = (key: string, text: string, what: string) => actions.copy(entry, key, text, what);
  const monogram = monogramOf(entry.serviceName, entry.urls[0]);
  const folder = entry.folderId === null ? undefined : folders.find((candidate) => candidate.id === entry.folderId);

  const field: FieldOf = (key, label, value, options = {}) => (
    <DetailField
      key={key}
      label={label}
      value={value}
      hidden={options.hidden ?? false}
      revealed={revealed.has(key)}
      copied={copied.has(key)}
      mono={options.mono ?? options.hidden ?? false}
      onToggle={() => toggle(key)}
      onCopy={() => copy(key, value, options.what ?? `the ${label.toLowerCase()}`)}
    />
  );

  // In this order: the type's own fields, then custom fields and notes (any type).
  const sections: ReactNode[] = [
    ...(entry.type === 'login' ? loginSections(entry, secrets, field, copied, copy, () => actions.used(entry)) : []),
    ...(entry.type === 'card' ? cardSections(entry, secrets, field) : []),
    ...(entry.type === 'identity' ? identitySections(entry, secrets, field) : []),
    ...(entry.type === 'sshKey' ? sshKeySections(entry, secrets, field) : []),
    ...customFieldSections(entry, secrets, field, copied, copy),
  ];

  return (
    <section ref={sectionRef} aria-labelledby={titleId} className="flex min-h-full flex-col gap-4">
      <header className="flex items-start gap-3">
        <span
          aria-hidden="true"
          className="flex size-12 shrink-0 items-center justify-center rounded-full text-lg font-bold text-white"
          style={{ backgroundColor: monogramColour(monogram.hue) }}
        >
          {monogram.letters}
        </span>
        <div className="min-w-0 flex-1">
          <h2 id={titleId} ref={headingRef} tabIndex={-1} className="text-xl font-semibold break-words text-white outline-none">
            {entry.serviceName}
          </h2>
          <p className="text-sm text-slate-400">
            {TYPE_NAMES[entry.type]}
            {folder && ` · ${folderPath(folder.name)}`}
            {trashed && ' · in Trash'}
            <PendingBadge id={entry.id} />
          </p>
        </div>
        {!trashed && (
          <button
            type="button"
            className={entry.favorite ? iconButton.replace('text-slate-300', 'text-amber-300') : iconButton}
            aria-label="Favourite"
            aria-pressed={entry.favorite}
            data-icon={entry.favorite ? 'star-filled' : 'star'}
            onClick={() => void actions.setFavorite(entry, !entry.favorite)}
          />
        )}
        <button type="button" className={iconButton} aria-label="Close" data-icon="close" onClick={actions.close} />
      </header>

      {failed && (
        <p role="alert" className="rounded-lg border border-amber-700 bg-amber-950/40 p-3 text-sm text-amber-100">
          This entry could not be decrypted. It may have been changed on the server.
        </p>
      )}
      {current === null && <p className="text-sm text-slate-400">Decrypting…</p>}

      {sections.length > 0 && (
        <dl className="flex flex-col divide-y divide-slate-800 rounded-xl border border-slate-800 bg-slate-900/60">{sections}</dl>
      )}

      {!trashed && <Organise entry={entry} folders={folders} secrets={secrets} save={actions.save} />}

      {vaultKey && (
        <AttachmentsSection
          key={entry.id}
          entryId={entry.id}
          listed={entry.files}
          deletedFiles={entry.deletedFiles}
          setFiles={(change, served, deletedForGood) => actions.setFiles(entry, change, served, deletedForGood)}
          vaultKey={vaultKey}
          keyEpoch={unlocked?.keyEpoch}
          trashed={trashed}
          onShare={
            !trashed && shareLinksOn ? (file) => setSharing((last) => ({ file, asked: (last?.asked ?? 0) + 1 })) : undefined
          }
        />
      )}

      {!trashed && (
        <ShareSection
          key={`share-${entry.id}`}
          entry={{ id: entry.id, name: entry.serviceName }}
          vaultKey={vaultKey ?? null}
          attachment={sharing}
          itemCopy={
            secrets && {
              kind: 'item',
              item: {
                title: entry.serviceName,
                username: entry.username,
                password: secrets.password,
                url: entry.urls[0] ?? '',
                notes: secrets.notes,
              },
            }
          }
        />
      )}

      <p className="text-xs text-slate-400">
        Last edited <time dateTime={entry.updatedAt}>{formatTime(entry.updatedAt)}</time>
        {trashed && entry.deletedAt && (
          <>
            {' · '}moved to Trash <time dateTime={entry.deletedAt}>{formatTime(entry.deletedAt)}</time>
          </>
        )}
      </p>

      <div className="mt-auto flex flex-wrap gap-2 border-t border-slate-800 pt-4">
        {trashed ? (
          <>
            <button type="button" className={buttonPrimary} onClick={() => actions.restore(entry)}>
              Restore
            </button>
            <button type="button" className={buttonDanger} onClick={() => actions.purge(entry)}>
              Delete forever
            </button>
          </>
        ) : (
          <>
            <button type="button" className={buttonPrimary} onClick={() => actions.edit(entry)}>
              Edit
            </button>
            <button type="button" className={buttonSecondary} onClick={() => actions.history(entry)}>
              History
            </button>
            <button type="button" className={buttonDanger} onClick={() => actions.remove(entry)}>
              Delete
            </button>
          </>
        )}
      </div>
    </section>
  );
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
function formatTime(iso: string): string {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? iso : dateFormat.format(time);
}
