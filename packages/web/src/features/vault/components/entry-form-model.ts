import type { EntryType } from '@lockit/contract';
import { emptyDraft } from '@lockit/client-core';
import type { EntryDraft } from '@lockit/client-core';
import { sshKeyProblem } from './ssh-key-problem';
import { totpSeedProblem } from './totp-seed-field';

/** A new login: the Add dialog's default. */
export const EMPTY_DRAFT: EntryDraft = emptyDraft('login');

export const ENTRY_TYPE_LABELS: Record<EntryType, string> = {
  login: 'Login',
  note: 'Secure note',
  card: 'Card',
  identity: 'Identity',
  sshKey: 'SSH key',
};

const TITLE_NOUNS: Record<EntryType, string> = {
  login: 'Password',
  note: 'Secure Note',
  card: 'Card',
  identity: 'Identity',
  sshKey: 'SSH Key',
};

/** The spec's titles for a login ("Add New Password", "Edit Password"); the other types say what they are. */
export function entryDialogTitle(mode: 'add' | 'edit', type: EntryType): string {
  return mode === 'add' ? `Add New ${TITLE_NOUNS[type]}` : `Edit ${TITLE_NOUNS[type]}`;
}

export type FieldKey = 'serviceName' | 'username' | 'password' | 'totp' | 'expMonth' | 'expYear' | 'privateKey';
export type Errors = Partial<Record<FieldKey, string>>;
/** The order a refused submit looks for the field to focus. */
export const FIELD_ORDER: FieldKey[] = ['serviceName', 'username', 'password', 'totp', 'expMonth', 'expYear', 'privateKey'];

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
  if (draft.type === 'sshKey') {
    const problem = sshKeyProblem(draft.sshKey?.privateKey ?? '');
    if (problem !== null) errors.privateKey = problem;
  }
  return errors;
}

/** What the type-specific field groups need to mark a field invalid and tie its message to it. */
export interface FieldErrorProps {
  errors: Errors;
  errorId(key: FieldKey): string;
  describedBy(key: FieldKey): { 'aria-invalid': boolean; 'aria-describedby'?: string };
  clearError(key: FieldKey): void;
}
