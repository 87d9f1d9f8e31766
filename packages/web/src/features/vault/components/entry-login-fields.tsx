import { ENTRY_PLAINTEXT_LIMITS } from '@lockit/contract';
import { useId, useState } from 'react';
import { StrengthMeter } from '@/components/generator/strength-meter';
import { PasswordInput } from '@/components/ui/password-input';
import { buttonSecondary } from '@/components/ui/styles';
import { TextInput } from '@/components/ui/text-input';
import type { EntryDraft } from '@lockit/client-core';
import { Field } from './entry-form-sections';
import type { FieldErrorProps } from './entry-form-model';
import { EntryPasswordGenerator } from './entry-password-generator';
import { TotpSeedField } from './totp-seed-field';
import { UrlList } from './url-list';

/**
 * A login's own fields: Username, Password (with the generator beside it), URLs and TOTP seed.
 * While the generator is open, the field holds its value: one click on Generate fills it.
 */
export function LoginFields({
  draft,
  update,
  errorProps,
  startWithGenerator = false,
}: {
  draft: EntryDraft;
  update(change: Partial<EntryDraft>): void;
  errorProps: FieldErrorProps;
  /** Opens with the generator showing (the health report's "change"). */
  startWithGenerator?: boolean;
}) {
  const { errors, errorId, describedBy, clearError } = errorProps;
  const [generating, setGenerating] = useState(startWithGenerator);
  const generatorId = useId();
  return (
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
        <div className="flex items-end gap-2">
          <div className="min-w-0 flex-1">
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
          </div>
          <button
            type="button"
            className={`${buttonSecondary} px-3 py-2 text-sm`}
            aria-expanded={generating}
            aria-controls={generating ? generatorId : undefined}
            onClick={() => setGenerating((open) => !open)}
          >
            Generate
          </button>
        </div>
      </Field>
      {draft.password !== '' && <StrengthMeter password={draft.password} userInputs={[draft.username, draft.serviceName]} />}
      {generating && (
        <EntryPasswordGenerator
          id={generatorId}
          itemName={draft.serviceName}
          onFill={(password) => {
            update({ password });
            clearError('password');
          }}
          onUse={(password) => {
            update({ password });
            clearError('password');
            setGenerating(false);
          }}
        />
      )}
      <UrlList urls={draft.urls} rules={draft.urlRules} onChange={(urls, urlRules) => update({ urls, urlRules })} />
      <TotpSeedField
        value={draft.totp}
        onChange={(totp) => {
          update({ totp });
          clearError('totp');
        }}
        error={errors.totp}
      />
    </>
  );
}
