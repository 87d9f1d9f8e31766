import { useState, type FormEvent } from 'react';
import { TextInput } from '@/components/ui/text-input';
import { buttonPrimary, card } from '@/components/ui/styles';
import { useCreateInvite } from '../api/create-invite';
import { useSignInAgainOn401 } from '../api/get-admin-session';
import { failureText, formatWhen } from '../lib/format';
import { CopyButton } from './copy-button';

/** An invitation for anyone, or for one address; the link is shown to copy (and mailed when SMTP is set). */
export function InviteForm() {
  const [email, setEmail] = useState('');
  const invite = useCreateInvite();
  useSignInAgainOn401(invite.error);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    invite.mutate(email);
  };

  return (
    <section aria-labelledby="invite-title" className={card}>
      <h2 id="invite-title" className="mb-2 text-xl font-semibold text-white">
        Invite someone
      </h2>
      <p className="mb-4 text-sm text-slate-400">
        The link creates one account. Leave the address empty for a link anyone may use; with an address, only that address can
        use it.
      </p>
      <form onSubmit={onSubmit} className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="flex-1">
          <TextInput
            label="E-mail address (optional)"
            type="email"
            name="invite-email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
        </div>
        <button type="submit" className={buttonPrimary} disabled={invite.isPending}>
          Create invite
        </button>
      </form>
      {invite.isError && (
        <p role="alert" className="mt-3 text-sm text-red-400">
          {failureText(invite.error)}
        </p>
      )}
      {invite.isSuccess && (
        <div className="mt-4 flex flex-col gap-2">
          <p className="text-sm text-slate-300">
            {invite.data.emailed ? 'Mailed. ' : ''}Works once
            {invite.data.expiresAt ? `, until ${formatWhen(invite.data.expiresAt)}` : ''}:
          </p>
          <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
            <output
              aria-label="Invitation link"
              className="flex-1 rounded-lg border border-slate-700 bg-slate-950 px-3 py-2 text-sm break-all text-slate-200"
            >
              {invite.data.link}
            </output>
            <CopyButton text={invite.data.link} label="Copy invitation link" />
          </div>
        </div>
      )}
    </section>
  );
}
