import { ENTRY_PLAINTEXT_LIMITS, type EntryType } from '@lockit/contract';
import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Dialog } from '@/components/ui/dialog';
import { buttonPrimary, buttonSecondary } from '@/components/ui/styles';
import { TextInput } from '@/components/ui/text-input';
import { logFailure } from '@/lib/log';
import { failureMessage } from '../lib/action-messages';
import { withType } from '@lockit/client-core';
import type { ActionResult, CardDraft, EntryDraft, IdentityDraft, OpenFolder } from '@lockit/client-core';
import { CustomFieldsEditor, Field, FolderPicker, inputClass, pendingTags, TagsEditor } from './entry-form-sections';
import {
  draftProblems,
  entryDialogTitle,
  ENTRY_TYPE_LABELS,
  FIELD_ORDER,
  type Errors,
  type FieldErrorProps,
  type FieldKey,
} from './entry-form-model';
import { LoginFields } from './entry-login-fields';
import { CardFields, EMPTY_CARD, EMPTY_IDENTITY, IdentityFields } from './entry-type-fields';
import { SshKeyFields } from './ssh-key-fields';

export { EMPTY_DRAFT, ENTRY_TYPE_LABELS, entryDialogTitle, draftProblems } from './entry-form-model';

interface EntryFormDialogProps {
  /** Add: a new entry (Add button); edit: an existing one (Save button). */
  mode?: 'add' | 'edit';
  /** @deprecated the title follows `mode` and the type; kept so older callers still type-check. */
  title?: string;
  /** @deprecated use `mode`; 'Save' means edit. */
  submitLabel?: 'Add' | 'Save';
  initial: EntryDraft;
  /**
   * Saves the draft. Resolving { ok: true } (or nothing) means saved: the caller closes the
   * dialog. { ok: false, message } keeps the form as typed and shows the message; so does a
   * rejection (logged, spec).
   */
  onSubmit: (draft: EntryDraft) => Promise<ActionResult | void>;
  onClose: () => void;
  folders?: readonly OpenFolder[];
  /** Offered as "New folder" beside the folder select when given. */
  onAddFolder?: (name: string) => Promise<{ ok: true; folder: OpenFolder } | { ok: false; message: string }>;
  /** A login opens with the password generator showing (e.g. "change" in the health report). */
  startWithGenerator?: boolean;
}

/**
 * The Add and Edit modals, for every type of entry. For a login the spec's dialog is
 * unchanged: title, Service, Username, Password (required), URL and Notes (optional), Add or
 * Save and Cancel; the rest (type, more URLs, TOTP, custom fields, folder, tags, favourite)
 * comes around it. A save that fails never loses what was typed: the dialog stays open with
 * its values and says why in a polite live region (non-blocking).
 */
export function EntryFormDialog({
  mode: givenMode,
  submitLabel,
  initial,
  onSubmit,
  onClose,
  folders = [],
  onAddFolder,
  startWithGenerator = false,
}: EntryFormDialogProps) {
  const mode = givenMode ?? (submitLabel === 'Save' ? 'edit' : 'add');
  const [draft, setDraft] = useState(initial);
  const [pendingTag, setPendingTag] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [saving, setSaving] = useState(false);
  const [message, setMessage] = useState('');
  const formRef = useRef<HTMLFormElement>(null);
  // The name field takes the focus on open (the type select before it keeps its default).
  const nameRef = useRef<HTMLElement | null>(null);
  const holdNameInput = useCallback((wrapper: HTMLDivElement | null) => {
    nameRef.current = wrapper?.querySelector('input') ?? null;
  }, []);
  const ids = { type: useId(), notes: useId(), error: useId() };
  const errorId = useCallback((key: FieldKey) => `${ids.error}-${key}`, [ids.error]);
  // After a refused submit, the first field with a problem takes the focus (once it is marked).
  const [focusRequest, setFocusRequest] = useState<{ key: FieldKey } | null>(null);
  useEffect(() => {
    if (focusRequest === null) return;
    formRef.current?.querySelector<HTMLElement>(`[aria-describedby~="${errorId(focusRequest.key)}"]`)?.focus();
  }, [focusRequest, errorId]);
  const title = entryDialogTitle(mode, draft.type);
  const login = draft.type === 'login';

  const update = (change: Partial<EntryDraft>) => setDraft((current) => ({ ...current, ...change }));
  const clearError = (key: FieldKey) =>
    setErrors((current) => (current[key] === undefined ? current : { ...current, [key]: undefined }));
  const describedBy = (key: FieldKey) =>
    errors[key] !== undefined ? { 'aria-invalid': true, 'aria-describedby': errorId(key) } : { 'aria-invalid': false };
  const errorProps: FieldErrorProps = { errors, errorId, describedBy, clearError };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    const complete = { ...draft, tags: pendingTags(draft.tags, pendingTag) };
    const problems = draftProblems(complete);
    setErrors(problems);
    const first = FIELD_ORDER.find((key) => problems[key] !== undefined);
    if (first !== undefined) {
      setFocusRequest({ key: first });
      return;
    }
    setDraft(complete);
    setPendingTag('');
    setSaving(true);
    setMessage('');
    try {
      const result = await onSubmit(complete);
      if (result && !result.ok) {
        setMessage(result.message);
        setSaving(false);
      }
    } catch (error) {
      logFailure(title, error);
      setMessage(failureMessage('save', error, { keptInForm: true }));
      setSaving(false);
    }
  };

  const setCard = (change: Partial<CardDraft>) =>
    setDraft((current) => ({ ...current, card: { ...(current.card ?? EMPTY_CARD), ...change } }));
  const setIdentity = (change: Partial<IdentityDraft>) =>
    setDraft((current) => ({ ...current, identity: { ...(current.identity ?? EMPTY_IDENTITY), ...change } }));

  return (
    <Dialog title={title} onClose={onClose} initialFocusRef={nameRef}>
      <form ref={formRef} onSubmit={submit} noValidate className="flex flex-col gap-4">
        <div className="-mr-2 flex max-h-[65vh] flex-col gap-4 overflow-y-auto pr-2">
          <div className="flex flex-col gap-1">
            <label htmlFor={ids.type} className="text-sm font-medium text-slate-300">
              Type
            </label>
            <select
              id={ids.type}
              value={draft.type}
              onChange={(event) => {
                setDraft((current) => withType(current, event.target.value as EntryType));
                setErrors({});
              }}
              className={inputClass}
            >
              {(Object.keys(ENTRY_TYPE_LABELS) as EntryType[]).map((type) => (
                <option key={type} value={type}>
                  {ENTRY_TYPE_LABELS[type]}
                </option>
              ))}
            </select>
          </div>

          <Field error={errors.serviceName} id={errorId('serviceName')} wrapperRef={holdNameInput}>
            <TextInput
              label={login ? 'Service' : 'Name'}
              name="service"
              autoComplete="off"
              value={draft.serviceName}
              onChange={(event) => {
                update({ serviceName: event.target.value });
                clearError('serviceName');
              }}
              maxLength={ENTRY_PLAINTEXT_LIMITS.serviceName}
              required
              {...describedBy('serviceName')}
            />
          </Field>

          {login && <LoginFields draft={draft} update={update} errorProps={errorProps} startWithGenerator={startWithGenerator} />}
          {draft.type === 'card' && draft.card && <CardFields card={draft.card} onChange={setCard} errorProps={errorProps} />}
          {draft.type === 'identity' && draft.identity && (
            <IdentityFields identity={draft.identity} onChange={setIdentity} errorProps={errorProps} />
          )}
          {draft.type === 'sshKey' && draft.sshKey && (
            <SshKeyFields
              sshKey={draft.sshKey}
              onChange={(change) =>
                setDraft((current) => ({
                  ...current,
                  sshKey: { ...(current.sshKey ?? { privateKey: '', comment: '' }), ...change },
                }))
              }
              errorProps={errorProps}
            />
          )}

          <div className="flex flex-col gap-1">
            <label htmlFor={ids.notes} className="text-sm font-medium text-slate-300">
              {draft.type === 'note' ? 'Note' : 'Notes (optional)'}
            </label>
            <textarea
              id={ids.notes}
              name="notes"
              rows={draft.type === 'note' ? 8 : 3}
              value={draft.notes}
              onChange={(event) => update({ notes: event.target.value })}
              maxLength={ENTRY_PLAINTEXT_LIMITS.notes}
              className={inputClass}
            />
          </div>

          <CustomFieldsEditor fields={draft.fields} onChange={(fields) => update({ fields })} newId={() => crypto.randomUUID()} />
          <FolderPicker
            folders={folders}
            folderId={draft.folderId}
            onChange={(folderId) => update({ folderId })}
            onAddFolder={onAddFolder}
          />
          <TagsEditor
            tags={draft.tags}
            pending={pendingTag}
            onChange={(tags) => update({ tags })}
            onPendingChange={setPendingTag}
          />
          <label className="flex items-center gap-2 text-sm text-slate-200">
            <input type="checkbox" checked={draft.favorite} onChange={(event) => update({ favorite: event.target.checked })} />
            Favourite
          </label>
        </div>

        <div className="flex justify-end gap-3">
          <button type="submit" className={buttonPrimary} disabled={saving}>
            {mode === 'add' ? 'Add' : 'Save'}
          </button>
          <button type="button" className={buttonSecondary} onClick={onClose}>
            Cancel
          </button>
        </div>
        <p role="status" className="min-h-5 text-sm text-slate-300">
          {saving ? 'Encrypting and saving…' : message}
        </p>
      </form>
    </Dialog>
  );
}
