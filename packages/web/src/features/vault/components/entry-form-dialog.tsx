import { ENTRY_PLAINTEXT_LIMITS, IDENTITY_FIELDS, type EntryType, type IdentityField } from '@lockit/contract';
import { useCallback, useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Dialog } from '@/components/ui/dialog';
import { PasswordInput } from '@/components/ui/password-input';
import { buttonPrimary, buttonSecondary } from '@/components/ui/styles';
import { TextInput } from '@/components/ui/text-input';
import { logFailure } from '@/lib/log';
import { failureMessage } from '../lib/action-messages';
import { emptyDraft, withType } from '../lib/seal-entry';
import type { ActionResult, CardDraft, EntryDraft, IdentityDraft, OpenFolder } from '../lib/vault-entry';
import {
  CustomFieldsEditor,
  FieldError,
  FolderPicker,
  inputClass,
  pendingTags,
  TagsEditor,
  UrlList,
} from './entry-form-sections';
import { totpSeedProblem, TotpSeedField } from './totp-seed-field';

/** A new login: the Add dialog's default. */
export const EMPTY_DRAFT: EntryDraft = emptyDraft('login');

export const ENTRY_TYPE_LABELS: Record<EntryType, string> = {
  login: 'Login',
  note: 'Secure note',
  card: 'Card',
  identity: 'Identity',
};

const TITLE_NOUNS: Record<EntryType, string> = { login: 'Password', note: 'Secure Note', card: 'Card', identity: 'Identity' };

/** The spec's titles for a login ("Add New Password", "Edit Password"); the other types say what they are. */
export function entryDialogTitle(mode: 'add' | 'edit', type: EntryType): string {
  return mode === 'add' ? `Add New ${TITLE_NOUNS[type]}` : `Edit ${TITLE_NOUNS[type]}`;
}

const IDENTITY_LABELS: Record<IdentityField | 'ssn' | 'passport' | 'license', string> = {
  title: 'Title',
  firstName: 'First name',
  middleName: 'Middle name',
  lastName: 'Last name',
  email: 'Email',
  phone: 'Phone',
  company: 'Company',
  address1: 'Address line 1',
  address2: 'Address line 2',
  city: 'City',
  state: 'State or province',
  postalCode: 'Postal code',
  country: 'Country',
  ssn: 'Social security number',
  passport: 'Passport number',
  license: 'Licence number',
};

type FieldKey = 'serviceName' | 'username' | 'password' | 'totp' | 'expMonth' | 'expYear';
type Errors = Partial<Record<FieldKey, string>>;

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
}

/** Why a draft cannot be saved, field by field; empty when it can. */
export function draftProblems(draft: EntryDraft): Errors {
  const errors: Errors = {};
  if (draft.serviceName.trim() === '') {
    errors.serviceName = draft.serviceName === '' ? 'Enter a name.' : 'Enter a name, not only spaces.';
  }
  if (draft.type === 'login') {
    if (draft.username.trim() === '')
      errors.username = draft.username === '' ? 'Enter a user name.' : 'Enter a user name, not only spaces.';
    if (draft.password === '') errors.password = 'Enter a password.';
    const totp = totpSeedProblem(draft.totp);
    if (totp !== null) errors.totp = totp;
  }
  if (draft.type === 'card' && draft.card) {
    if (!/^(|0?[1-9]|1[0-2])$/.test(draft.card.expMonth.trim())) errors.expMonth = 'Enter a month from 1 to 12.';
    if (!/^(|\d{2}|\d{4})$/.test(draft.card.expYear.trim())) errors.expYear = 'Enter a year of 2 or 4 digits.';
  }
  return errors;
}

const FIELD_ORDER: FieldKey[] = ['serviceName', 'username', 'password', 'totp', 'expMonth', 'expYear'];

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
    setDraft((current) => ({ ...current, card: { ...(current.card ?? emptyDraft('card').card!), ...change } }));
  const setIdentity = (change: Partial<IdentityDraft>) =>
    setDraft((current) => ({ ...current, identity: { ...(current.identity ?? emptyDraft('identity').identity!), ...change } }));

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

          {login && (
            <>
              <Field error={errors.username} id={errorId('username')}>
                <TextInput
                  label="Username"
                  name="entry-username"
                  autoComplete="off"
                  value={draft.username}
                  onChange={(event) => {
                    update({ username: event.target.value });
                    clearError('username');
                  }}
                  maxLength={ENTRY_PLAINTEXT_LIMITS.username}
                  required
                  {...describedBy('username')}
                />
              </Field>
              <Field error={errors.password} id={errorId('password')}>
                <PasswordInput
                  label="Password"
                  name="entry-password"
                  autoComplete="off"
                  value={draft.password}
                  onChange={(event) => {
                    update({ password: event.target.value });
                    clearError('password');
                  }}
                  maxLength={ENTRY_PLAINTEXT_LIMITS.password}
                  required
                  {...describedBy('password')}
                />
              </Field>
              <UrlList urls={draft.urls} onChange={(urls) => update({ urls })} />
              <TotpSeedField
                value={draft.totp}
                onChange={(totp) => {
                  update({ totp });
                  clearError('totp');
                }}
                error={errors.totp}
              />
            </>
          )}

          {draft.type === 'card' && draft.card && (
            <fieldset className="flex flex-col gap-3 rounded-lg border border-slate-800 p-3">
              <legend className="px-1 text-sm font-medium text-slate-300">Card</legend>
              <TextInput
                label="Cardholder name"
                autoComplete="off"
                value={draft.card.holder}
                maxLength={200}
                onChange={(event) => setCard({ holder: event.target.value })}
              />
              <TextInput
                label="Brand"
                autoComplete="off"
                value={draft.card.brand}
                maxLength={200}
                onChange={(event) => setCard({ brand: event.target.value })}
              />
              <PasswordInput
                label="Card number"
                autoComplete="off"
                inputMode="numeric"
                value={draft.card.number}
                maxLength={40}
                onChange={(event) => setCard({ number: event.target.value })}
              />
              <PasswordInput
                label="Security code"
                autoComplete="off"
                inputMode="numeric"
                value={draft.card.code}
                maxLength={10}
                onChange={(event) => setCard({ code: event.target.value })}
              />
              <div className="grid grid-cols-2 gap-3">
                <Field error={errors.expMonth} id={errorId('expMonth')}>
                  <TextInput
                    label="Expiry month"
                    autoComplete="off"
                    inputMode="numeric"
                    value={draft.card.expMonth}
                    maxLength={2}
                    onChange={(event) => {
                      setCard({ expMonth: event.target.value });
                      clearError('expMonth');
                    }}
                    {...describedBy('expMonth')}
                  />
                </Field>
                <Field error={errors.expYear} id={errorId('expYear')}>
                  <TextInput
                    label="Expiry year"
                    autoComplete="off"
                    inputMode="numeric"
                    value={draft.card.expYear}
                    maxLength={4}
                    onChange={(event) => {
                      setCard({ expYear: event.target.value });
                      clearError('expYear');
                    }}
                    {...describedBy('expYear')}
                  />
                </Field>
              </div>
            </fieldset>
          )}

          {draft.type === 'identity' && draft.identity && (
            <fieldset className="flex flex-col gap-3 rounded-lg border border-slate-800 p-3">
              <legend className="px-1 text-sm font-medium text-slate-300">Identity</legend>
              {IDENTITY_FIELDS.map((name) => (
                <TextInput
                  key={name}
                  label={IDENTITY_LABELS[name]}
                  autoComplete="off"
                  value={draft.identity![name]}
                  maxLength={200}
                  onChange={(event) => setIdentity({ [name]: event.target.value })}
                />
              ))}
              {(['ssn', 'passport', 'license'] as const).map((name) => (
                <PasswordInput
                  key={name}
                  label={IDENTITY_LABELS[name]}
                  autoComplete="off"
                  value={draft.identity![name]}
                  maxLength={200}
                  onChange={(event) => setIdentity({ [name]: event.target.value })}
                />
              ))}
            </fieldset>
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

/** A field with its error under it. */
function Field({
  error,
  id,
  children,
  wrapperRef,
}: {
  error: string | undefined;
  id: string;
  children: ReactNode;
  wrapperRef?: (wrapper: HTMLDivElement | null) => void;
}) {
  return (
    <div ref={wrapperRef} className="flex flex-col gap-1">
      {children}
      <FieldError id={id} message={error} />
    </div>
  );
}
