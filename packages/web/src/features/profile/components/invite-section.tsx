import { useState, type FormEvent } from 'react';
import { buttonPrimary, buttonSecondary, card } from '@/components/ui/styles';
import { TextInput } from '@/components/ui/text-input';
import { serverMessageOf } from '@/lib/api-errors';
import { useCreateInvite, useInvites, useRevokeInvite } from '../api/invites';

const COPIED_MS = 2000;

/**
 * "Invite someone" (SIGNUP_MODE=invite, decision 0044): an optional address, a new invitation
 * link shown once to copy (the server also mails it when it can), and the open invitations
 * with Revoke. Rendered only when the server's sign-up is by invitation.
 */
export function InviteSection() {
  const [email, setEmail] = useState('');
  const [link, setLink] = useState<{ url: string; message: string } | null>(null);
  const [copied, setCopied] = useState(false);
  const invites = useInvites(true);
  const create = useCreateInvite();
  const revoke = useRevokeInvite();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (create.isPending) return;
    setCopied(false);
    create.mutate(email.trim() === '' ? {} : { email: email.trim() }, {
      onSuccess: ({ message, invite }) => {
        setLink({
          url: invite.url,
          message: invite.mailed ? `${message}: the link was also mailed to ${invite.email}.` : message,
        });
        setEmail('');
      },
    });
  };

  const copy = async (url: string) => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
      setTimeout(() => setCopied(false), COPIED_MS);
    } catch {
      setCopied(false);
    }
  };

  return (
    <section aria-labelledby="invite-title" className={card}>
      <h2 id="invite-title" className="mb-2 text-xl font-semibold text-white">
        Invite someone
      </h2>
      <p className="mb-4 text-sm text-slate-400">
        Sign-up on this server is by invitation. Each link works once, for one new account.
      </p>
      {/* `dialog`: never submitted by the browser itself, only by the handler. */}
      <form method="dialog" onSubmit={onSubmit} className="flex flex-col gap-3">
        <TextInput
          label="Their email (optional)"
          name="invite-email"
          type="email"
          autoComplete="off"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <button type="submit" className={buttonPrimary} disabled={create.isPending}>
          Create invite link
        </button>
      </form>
      {create.isError && (
        <p role="alert" className="mt-3 text-sm text-rose-300">
          {serverMessageOf(create.error) ?? 'The invitation could not be made. Try again.'}
        </p>
      )}
      {link && (
        <div className="mt-4 flex flex-col gap-2">
          <p role="status" className="text-sm text-emerald-300">
            {link.message}
          </p>
          <div className="flex gap-2">
            <input
              aria-label="Invite link"
              readOnly
              value={link.url}
              onFocus={(event) => event.target.select()}
              className="min-w-0 flex-1 rounded-lg border border-slate-700 bg-slate-800 px-3 py-2 text-sm text-white"
            />
            <button type="button" className={buttonSecondary} onClick={() => void copy(link.url)}>
              {copied ? 'Copied' : 'Copy'}
            </button>
          </div>
        </div>
      )}
      <h3 className="mt-6 mb-2 font-semibold text-white">Open invitations</h3>
      {invites.isSuccess && invites.data.length === 0 && <p className="text-sm text-slate-400">None.</p>}
      {invites.isSuccess && invites.data.length > 0 && (
        <ul aria-label="Open invitations" className="flex flex-col gap-2">
          {invites.data.map((invite) => (
            <li key={invite.id} className="flex items-center justify-between gap-3 text-sm text-slate-300">
              <span>
                {invite.email ?? 'Anyone with the link'} · until {new Date(invite.expiresAt).toLocaleDateString()}
              </span>
              <button
                type="button"
                className="rounded-lg border border-slate-600 px-3 py-1 text-slate-200 hover:bg-slate-800"
                aria-label={`Revoke the invitation for ${invite.email ?? 'anyone with the link'}`}
                disabled={revoke.isPending}
                onClick={() => revoke.mutate(invite.id)}
              >
                Revoke
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
