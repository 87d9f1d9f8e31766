import { IDENTITY_FIELDS, type IdentityField } from '@lockit/contract';
import { useEffect, useId, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { buttonDanger, buttonPrimary, buttonSecondary } from '@/components/ui/styles';
import { folderPath } from '../lib/entry-filter';
import { monogramOf } from '../lib/monogram';
import { draftOf, normaliseTags } from '../lib/seal-entry';
import { parseTotpSeed, totpCode, totpRemainingSeconds, type TotpSeed } from '../lib/totp';
import type { EntryDraft, EntrySecrets, OpenEntry, OpenFolder } from '../lib/vault-entry';
import { monogramColour } from './entry-row';
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

const TYPE_NAMES = { login: 'Login', note: 'Secure note', card: 'Card', identity: 'Identity' } as const;
const MASK = '••••••••';

const iconButton = [
  'row-icon shrink-0 rounded-lg p-2 text-slate-300 transition hover:bg-slate-800 hover:text-white',
  'focus-visible:outline focus-visible:outline-2 focus-visible:outline-cyan-400',
].join(' ');
const smallButton =
  'rounded-lg border border-slate-600 px-3 py-1.5 text-sm font-semibold text-slate-100 hover:bg-slate-800 disabled:opacity-60';

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

  const field = (
    key: string,
    label: string,
    value: string,
    options: { hidden?: boolean; what?: string; mono?: boolean } = {},
  ) => (
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

  const sections: ReactNode[] = [];
  if (entry.type === 'login') {
    if (entry.username !== '') sections.push(field('username', 'User name', entry.username));
    if (secrets && secrets.password !== '')
      sections.push(field('password', 'Password', secrets.password, { hidden: true, what: 'a password' }));
    entry.urls.forEach((url, index) =>
      sections.push(
        <WebAddress
          key={`url-${index}`}
          url={url}
          label={entry.urls.length > 1 ? `Web address ${index + 1}` : 'Web address'}
          copied={copied.has(`url-${index}`)}
          onCopy={() => copy(`url-${index}`, url, 'a web address')}
          onOpen={() => actions.used(entry)}
        />,
      ),
    );
    if (secrets?.totp) {
      sections.push(
        <TotpField
          key="totp"
          seedText={secrets.totp}
          copied={copied.has('totp')}
          onCopy={(code) => copy('totp', code, 'a one-time code')}
        />,
      );
    }
  }
  if (entry.type === 'card' && entry.card) {
    const card = entry.card;
    if (card.holder !== '') sections.push(field('holder', 'Cardholder', card.holder));
    if (card.brand !== '') sections.push(field('brand', 'Brand', card.brand));
    if (secrets?.card?.number)
      sections.push(field('number', 'Card number', secrets.card.number, { hidden: true, what: 'a card number' }));
    if (card.expMonth !== '' || card.expYear !== '')
      sections.push(field('expiry', 'Expires', `${card.expMonth.padStart(2, '0')}/${card.expYear}`));
    if (secrets?.card?.code)
      sections.push(field('code', 'Security code', secrets.card.code, { hidden: true, what: 'a security code' }));
  }
  if (entry.type === 'identity' && entry.identity) {
    for (const name of IDENTITY_FIELDS) {
      const value = entry.identity[name];
      if (value !== '') sections.push(field(name, IDENTITY_LABELS[name], value));
    }
    const identitySecrets = secrets?.identity;
    if (identitySecrets?.ssn) sections.push(field('ssn', 'Social security number', identitySecrets.ssn, { hidden: true }));
    if (identitySecrets?.passport)
      sections.push(field('passport', 'Passport number', identitySecrets.passport, { hidden: true }));
    if (identitySecrets?.license) sections.push(field('license', 'Licence number', identitySecrets.license, { hidden: true }));
  }
  for (const custom of entry.fields) {
    const key = `field-${custom.id}`;
    const label = custom.label || 'Field';
    if (custom.kind === 'boolean') {
      sections.push(<StaticField key={key} label={label} value={custom.value === 'true' ? 'Yes' : 'No'} />);
    } else if (custom.kind === 'hidden') {
      const value = secrets?.hidden[custom.id];
      if (value !== undefined) sections.push(field(key, label, value, { hidden: true, what: `the field “${label}”` }));
    } else {
      sections.push(field(key, label, custom.value ?? '', { what: `the field “${label}”` }));
    }
  }
  if (secrets && secrets.notes !== '')
    sections.push(
      <NotesField
        key="notes"
        notes={secrets.notes}
        copied={copied.has('notes')}
        onCopy={() => copy('notes', secrets.notes, 'the notes')}
      />,
    );

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

const IDENTITY_LABELS: Record<IdentityField, string> = {
  title: 'Title',
  firstName: 'First name',
  middleName: 'Middle name',
  lastName: 'Last name',
  email: 'Email',
  phone: 'Phone',
  company: 'Company',
  address1: 'Address',
  address2: 'Address (line 2)',
  city: 'City',
  state: 'State or region',
  postalCode: 'Postal code',
  country: 'Country',
};

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
function formatTime(iso: string): string {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? iso : dateFormat.format(time);
}

/** One field: a label over its value, the value's buttons beside it (a dl's div > dt + dd). */
function FieldBox({ label, children, buttons }: { label: string; children: ReactNode; buttons?: ReactNode }) {
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

function StaticField({ label, value }: { label: string; value: string }) {
  return <FieldBox label={label}>{value}</FieldBox>;
}

interface DetailFieldProps {
  label: string;
  value: string;
  hidden: boolean;
  revealed: boolean;
  copied: boolean;
  mono: boolean;
  onToggle: () => void;
  onCopy: () => void;
}

function DetailField({ label, value, hidden, revealed, copied, mono, onToggle, onCopy }: DetailFieldProps) {
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

/** Only http(s) addresses become links; a bare host ("github.com") is taken as https. */
export function linkOf(url: string): string | null {
  const trimmed = url.trim();
  const candidate = /^[a-z][a-z0-9+.-]*:/i.test(trimmed) ? trimmed : `https://${trimmed}`;
  try {
    const parsed = new URL(candidate);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
}

function WebAddress({
  url,
  label,
  copied,
  onCopy,
  onOpen,
}: {
  url: string;
  label: string;
  copied: boolean;
  onCopy: () => void;
  onOpen: () => void;
}) {
  const href = linkOf(url);
  return (
    <FieldBox
      label={label}
      buttons={
        <>
          {href && (
            <a
              href={href}
              target="_blank"
              rel="noopener noreferrer"
              className={iconButton}
              aria-label={`Open ${url} in a new tab`}
              data-icon="external"
              onClick={onOpen}
            />
          )}
          <button
            type="button"
            className={iconButton}
            aria-label={copied ? `${label} copied` : `Copy ${label.toLowerCase()}`}
            data-icon={copied ? 'check' : 'copy'}
            onClick={onCopy}
          />
        </>
      }
    >
      {href ? (
        <a
          href={href}
          target="_blank"
          rel="noopener noreferrer"
          className="break-all text-cyan-300 underline-offset-2 hover:underline"
          onClick={onOpen}
        >
          {url}
        </a>
      ) : (
        <span className="break-all">{url}</span>
      )}
    </FieldBox>
  );
}

function NotesField({ notes, copied, onCopy }: { notes: string; copied: boolean; onCopy: () => void }) {
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

/**
 * The time, re-read at each whole second while mounted (the item view is open and shows a
 * one-time code), and not at all otherwise.
 */
function useSecondClock(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout>;
    const tick = () => {
      const time = Date.now();
      setNow(time);
      timer = setTimeout(tick, 1000 - (time % 1000));
    };
    timer = setTimeout(tick, 1000 - (Date.now() % 1000));
    return () => clearTimeout(timer);
  }, []);
  return now;
}

function TotpField({ seedText, copied, onCopy }: { seedText: string; copied: boolean; onCopy: (code: string) => void }) {
  const seed = useMemo<TotpSeed | null>(() => {
    try {
      return parseTotpSeed(seedText);
    } catch {
      return null;
    }
  }, [seedText]);
  if (seed === null)
    return <StaticField label="One-time code" value="The saved secret is not a valid TOTP secret. Edit the entry to fix it." />;
  return <LiveTotp seed={seed} copied={copied} onCopy={onCopy} />;
}

function LiveTotp({ seed, copied, onCopy }: { seed: TotpSeed; copied: boolean; onCopy: (code: string) => void }) {
  const now = useSecondClock();
  const code = totpCode(seed, now);
  const remaining = totpRemainingSeconds(seed, now);
  return (
    <FieldBox
      label="One-time code"
      buttons={
        <button
          type="button"
          className={iconButton}
          aria-label={copied ? 'One-time code copied' : 'Copy one-time code'}
          data-icon={copied ? 'check' : 'copy'}
          onClick={() => onCopy(totpCode(seed, Date.now()))}
        />
      }
    >
      <span className="flex items-center gap-3">
        <span className="font-mono text-xl tracking-widest text-white" data-testid="totp-code">
          {code}
        </span>
        <span className="text-sm text-slate-400 tabular-nums" title="Seconds until the code changes">
          {remaining} s
        </span>
        <span aria-hidden="true" className="h-1.5 w-16 overflow-hidden rounded-full bg-slate-800">
          <span
            className={`block h-full ${remaining <= 5 ? 'bg-amber-400' : 'bg-cyan-500'}`}
            style={{ width: `${(remaining / seed.period) * 100}%` }}
          />
        </span>
      </span>
    </FieldBox>
  );
}

/** Folder and tags: each change saves the entry (secrets included, as an edit would). */
function Organise({
  entry,
  folders,
  secrets,
  save,
}: {
  entry: OpenEntry;
  folders: readonly OpenFolder[];
  secrets: EntrySecrets | null;
  save: DetailsActions['save'];
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
