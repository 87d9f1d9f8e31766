import { IDENTITY_FIELDS } from '@lockit/contract';
import { PasswordInput } from '@/components/ui/password-input';
import { TextInput } from '@/components/ui/text-input';
import { emptyDraft } from '@lockit/client-core';
import type { CardDraft, IdentityDraft } from '@lockit/client-core';
import { Field } from './entry-form-sections';
import type { FieldErrorProps, FieldKey } from './entry-form-model';

/** One input of a card or identity: plain text, or a secret behind Show/Hide. */
interface InputSpec<Name extends string> {
  name: Name;
  label: string;
  secret?: boolean;
  numeric?: boolean;
  maxLength: number;
  /** The field's key in the form's errors, for the fields the form checks. */
  error?: FieldKey;
}

const CARD_INPUTS: ReadonlyArray<InputSpec<keyof CardDraft>> = [
  { name: 'holder', label: 'Cardholder name', maxLength: 200 },
  { name: 'brand', label: 'Brand', maxLength: 200 },
  { name: 'number', label: 'Card number', secret: true, numeric: true, maxLength: 40 },
  { name: 'code', label: 'Security code', secret: true, numeric: true, maxLength: 10 },
];
const CARD_EXPIRY: ReadonlyArray<InputSpec<keyof CardDraft>> = [
  { name: 'expMonth', label: 'Expiry month', numeric: true, maxLength: 2, error: 'expMonth' },
  { name: 'expYear', label: 'Expiry year', numeric: true, maxLength: 4, error: 'expYear' },
];

const IDENTITY_LABELS: Record<(typeof IDENTITY_FIELDS)[number], string> = {
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
};
const IDENTITY_INPUTS: ReadonlyArray<InputSpec<keyof IdentityDraft>> = [
  ...IDENTITY_FIELDS.map((name) => ({ name, label: IDENTITY_LABELS[name], maxLength: 200 })),
  { name: 'ssn', label: 'Social security number', secret: true, maxLength: 200 },
  { name: 'passport', label: 'Passport number', secret: true, maxLength: 200 },
  { name: 'license', label: 'Licence number', secret: true, maxLength: 200 },
];

/** Inputs for `specs` over one draft record (a card or an identity), each changing its own key. */
function DraftInputs<Name extends string>({
  specs,
  values,
  onChange,
  errorProps,
}: {
  specs: ReadonlyArray<InputSpec<Name>>;
  values: Record<Name, string>;
  onChange(change: Partial<Record<Name, string>>): void;
  errorProps: FieldErrorProps;
}) {
  return specs.map((spec) => {
    const Input = spec.secret ? PasswordInput : TextInput;
    const input = (
      <Input
        key={spec.name}
        label={spec.label}
        autoComplete="off"
        inputMode={spec.numeric ? 'numeric' : undefined}
        value={values[spec.name]}
        maxLength={spec.maxLength}
        onChange={(event) => {
          onChange({ [spec.name]: event.target.value } as Partial<Record<Name, string>>);
          if (spec.error) errorProps.clearError(spec.error);
        }}
        {...(spec.error ? errorProps.describedBy(spec.error) : {})}
      />
    );
    if (!spec.error) return input;
    return (
      <Field key={spec.name} error={errorProps.errors[spec.error]} id={errorProps.errorId(spec.error)}>
        {input}
      </Field>
    );
  });
}

export function CardFields({
  card,
  onChange,
  errorProps,
}: {
  card: CardDraft;
  onChange(change: Partial<CardDraft>): void;
  errorProps: FieldErrorProps;
}) {
  return (
    <fieldset className="flex flex-col gap-3 rounded-lg border border-slate-800 p-3">
      <legend className="px-1 text-sm font-medium text-slate-300">Card</legend>
      <DraftInputs specs={CARD_INPUTS} values={card} onChange={onChange} errorProps={errorProps} />
      <div className="grid grid-cols-2 gap-3">
        <DraftInputs specs={CARD_EXPIRY} values={card} onChange={onChange} errorProps={errorProps} />
      </div>
    </fieldset>
  );
}

export function IdentityFields({
  identity,
  onChange,
  errorProps,
}: {
  identity: IdentityDraft;
  onChange(change: Partial<IdentityDraft>): void;
  errorProps: FieldErrorProps;
}) {
  return (
    <fieldset className="flex flex-col gap-3 rounded-lg border border-slate-800 p-3">
      <legend className="px-1 text-sm font-medium text-slate-300">Identity</legend>
      <DraftInputs specs={IDENTITY_INPUTS} values={identity} onChange={onChange} errorProps={errorProps} />
    </fieldset>
  );
}

/** The empty card and identity a type change starts from. */
export const EMPTY_CARD: CardDraft = emptyDraft('card').card!;
export const EMPTY_IDENTITY: IdentityDraft = emptyDraft('identity').identity!;
