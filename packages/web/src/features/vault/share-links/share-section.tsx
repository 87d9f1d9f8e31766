import { useState } from 'react';
import { downloadAttachment, type AttachmentSource, type OpenedAttachment } from '@lockit/client-core';
import type { ShareContent } from '@lockit/crypto';
import { buttonPrimary, buttonSecondary } from '@/components/ui/styles';
import { serverMessageOf } from '@/lib/api-errors';
import { usePublicConfig } from '@/api/get-public-config';
import { fileSource, pageAttachmentPlatform } from '../attachments/attachment-platform';
import { formatSize } from '../attachments/format-size';
import { EXPIRY_CHOICES, makeFileShareLink, makeShareLink, type ShareOptions } from './share-dialog-model';
import { SharedLinksList } from './shared-links-list';

interface Props {
  /** The item the view shows: links made here are labelled with it, and listed first. */
  entry: { id: string; name: string };
  /** A copy of the item as it is now; null while its secrets are not open (then only a text can be shared). */
  itemCopy: ShareContent | null;
  /** Seals the owner's labels; null while locked. */
  vaultKey: CryptoKey | null;
  /** A file of the item the person chose to share (its Share in the file list); `asked` changes with each click. */
  attachment?: { file: OpenedAttachment; asked: number } | null;
}

type What = 'item' | 'text' | 'file' | 'attachment';

/** An attachment read back as a source: decrypted chunk by chunk as it is sealed again for the link. */
function attachmentSource(file: OpenedAttachment): AttachmentSource {
  return { name: file.name, type: file.type, size: file.size, stream: () => downloadAttachment(pageAttachmentPlatform, file) };
}

const input = 'rounded-lg border border-slate-700 bg-slate-950 px-3 py-2 text-sm text-slate-100';
const small = `${buttonSecondary} !px-2 !py-1 text-xs`;

/**
 * The item view's Share: a link for a copy of this item, a text, a file from this device or one
 * of the item's files, sealed in this browser (a file chunk by chunk as it uploads). The link is
 * shown once, to copy: its key is nowhere else. Hidden when the operator turned share links off.
 */
export function ShareSection({ entry, itemCopy, vaultKey, attachment = null }: Props) {
  const config = usePublicConfig();
  const [open, setOpen] = useState(false);
  const [what, setWhat] = useState<What>('item');
  const [text, setText] = useState('');
  const [picked, setPicked] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [options, setOptions] = useState<ShareOptions>({
    expiresInSeconds: EXPIRY_CHOICES[1].seconds,
    maxOpenings: 1,
    password: '',
    deleteAfterOpening: false,
  });
  const [link, setLink] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const [listed, setListed] = useState(0);

  // A file's Share in the list opens this form with that file chosen (adjusted while rendering, not in an effect).
  const [askedFor, setAskedFor] = useState(attachment);
  if (attachment !== askedFor) {
    setAskedFor(attachment);
    if (attachment !== null) {
      setWhat('attachment');
      setLink(null);
      setOpen(true);
    }
  }

  if (config.data?.shareLinks !== true) return null;

  const shareFile = (source: AttachmentSource) => {
    const label = { itemId: entry.id, title: `File ${source.name}` };
    setProgress(0);
    return makeFileShareLink(source, options, vaultKey && { vaultKey, label }, (done, total) =>
      setProgress(total === 0 ? 100 : Math.floor((done / total) * 100)),
    );
  };

  const submit = async () => {
    if (what === 'file' && picked === null) return setNote('Choose a file to share.');
    if (what === 'attachment' && attachment === null) return setNote('Choose a file to share.');
    const content: ShareContent | null = what === 'text' ? { kind: 'text', text } : itemCopy;
    if (what === 'item' && content === null) return setNote('The item is still being decrypted. Try again in a moment.');
    if (what === 'text' && text.trim() === '') return setNote('Type the text to share.');
    setBusy(true);
    setNote(null);
    try {
      if (what === 'file' && picked) setLink(await shareFile(fileSource(picked)));
      else if (what === 'attachment' && attachment) setLink(await shareFile(attachmentSource(attachment.file)));
      else if (content) {
        const title = what === 'text' ? `Text, from ${entry.name}` : `Copy of ${entry.name}`;
        setLink(await makeShareLink(content, options, vaultKey && { vaultKey, label: { itemId: entry.id, title } }));
      }
      setListed((count) => count + 1);
    } catch (error) {
      setNote(serverMessageOf(error) ?? (error instanceof Error ? error.message : 'The link could not be made.'));
    } finally {
      setBusy(false);
      setProgress(null);
    }
  };

  return (
    <section aria-label="Share" className="flex flex-col gap-2 rounded-xl border border-slate-800 bg-slate-900/60 p-3">
      <div className="flex items-center justify-between gap-2">
        <h3 className="text-sm font-semibold text-slate-200">Share by link</h3>
        {!open && (
          <button type="button" className={small} onClick={() => setOpen(true)}>
            Share
          </button>
        )}
      </div>
      {open && link === null && (
        <form
          className="flex flex-col gap-2 text-sm text-slate-200"
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
        >
          <fieldset className="flex flex-wrap gap-x-4 gap-y-1">
            <legend className="sr-only">What to share</legend>
            <label className="flex items-center gap-1">
              <input type="radio" name="share-what" checked={what === 'item'} onChange={() => setWhat('item')} /> A copy of this
              item
            </label>
            <label className="flex items-center gap-1">
              <input type="radio" name="share-what" checked={what === 'text'} onChange={() => setWhat('text')} /> A text
            </label>
            <label className="flex items-center gap-1">
              <input type="radio" name="share-what" checked={what === 'file'} onChange={() => setWhat('file')} /> A file
            </label>
            {attachment && (
              <label className="flex min-w-0 items-center gap-1">
                <input type="radio" name="share-what" checked={what === 'attachment'} onChange={() => setWhat('attachment')} />{' '}
                <span className="truncate">{attachment.file.name}</span>
              </label>
            )}
          </fieldset>
          {what === 'file' && (
            <label className="flex flex-col gap-1">
              File
              <input
                className={input}
                type="file"
                onChange={(event) => {
                  setPicked(event.target.files?.[0] ?? null);
                  setNote(null);
                }}
              />
            </label>
          )}
          {what === 'attachment' && attachment && (
            <p className="text-xs text-slate-400">
              {attachment.file.name} ({formatSize(attachment.file.size)}), from this item&apos;s files. The recipient gets a copy:
              deleting the item&apos;s file later does not reach the link.
            </p>
          )}
          {what === 'text' && (
            <label className="flex flex-col gap-1">
              Text
              <textarea className={input} value={text} maxLength={10_000} onChange={(event) => setText(event.target.value)} />
            </label>
          )}
          <label className="flex flex-col gap-1">
            Expires after
            <select
              className={input}
              value={options.expiresInSeconds}
              onChange={(event) => setOptions({ ...options, expiresInSeconds: Number(event.target.value) })}
            >
              {EXPIRY_CHOICES.map((choice) => (
                <option key={choice.seconds} value={choice.seconds}>
                  {choice.label}
                </option>
              ))}
            </select>
          </label>
          <label className="flex flex-col gap-1">
            Openings allowed
            <input
              className={input}
              type="number"
              min={1}
              max={100}
              value={options.maxOpenings}
              onChange={(event) =>
                setOptions({ ...options, maxOpenings: Math.max(1, Math.min(100, Math.trunc(Number(event.target.value)) || 1)) })
              }
            />
          </label>
          <label className="flex flex-col gap-1">
            Password (optional)
            <input
              className={input}
              type="password"
              autoComplete="new-password"
              value={options.password}
              onChange={(event) => setOptions({ ...options, password: event.target.value })}
            />
          </label>
          <label className="flex items-center gap-2">
            <input
              type="checkbox"
              checked={options.deleteAfterOpening}
              onChange={(event) => setOptions({ ...options, deleteAfterOpening: event.target.checked })}
            />
            Delete after the last opening
          </label>
          <div className="flex gap-2">
            <button type="submit" className={buttonPrimary} disabled={busy}>
              {busy ? (progress === null ? 'Making the link…' : `Encrypting and uploading… ${progress}%`) : 'Create link'}
            </button>
            <button type="button" className={buttonSecondary} onClick={() => setOpen(false)}>
              Cancel
            </button>
          </div>
        </form>
      )}
      {link !== null && (
        <div className="flex flex-col gap-2 text-sm text-slate-200">
          <p>Copy this link now: it is shown only once, and its key is nowhere else.</p>
          <input className={input} readOnly aria-label="Share link" value={link} onFocus={(event) => event.target.select()} />
          <div className="flex gap-2">
            <button
              type="button"
              className={small}
              onClick={() =>
                void navigator.clipboard.writeText(link).then(
                  () => setNote('Link copied.'),
                  () => setNote('Copying failed.'),
                )
              }
            >
              Copy link
            </button>
            <button
              type="button"
              className={small}
              onClick={() => {
                // The next link starts without this one's password or file.
                setLink(null);
                setOpen(false);
                setPicked(null);
                setOptions((last) => ({ ...last, password: '' }));
              }}
            >
              Done
            </button>
          </div>
        </div>
      )}
      {note && (
        <p role="status" className="text-sm text-amber-200">
          {note}
        </p>
      )}
      <SharedLinksList refresh={listed} entryId={entry.id} vaultKey={vaultKey} />
    </section>
  );
}
