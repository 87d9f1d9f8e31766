import { useMutation } from '@tanstack/react-query';
import { useCallback, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { usePublicConfig } from '@/api/get-public-config';
import { MasterPasswordStaysLocal } from '@/components/generator/master-password-stays-local';
import { PasswordProblems } from '@/components/generator/password-problems';
import { StrengthMeter } from '@/components/generator/strength-meter';
import { PasswordInput } from '@/components/ui/password-input';
import { SecureContextNotice, useSecureContext } from '@/components/ui/secure-context-notice';
import { useAppRunning } from '@/lib/use-app-running';
import { buttonPrimary, card } from '@/components/ui/styles';
import { TextInput } from '@/components/ui/text-input';
import { useToast } from '@/components/ui/toast';
import { paths } from '@/config/paths';
import { serverMessageOf } from '@/lib/api-errors';
import { checkMasterPassword } from '@/lib/password-strength/master-password-policy';
import { sendCode } from '../api/send-code';
import { createAccount, type SignUpFields } from '../lib/create-account';
import { MasterPasswordNotice } from './master-password-notice';

import { VERIFY_TOAST_MS, VerifyEmailModal, type PendingVerification } from './verify-email-modal';

const EMPTY: SignUpFields = { fullname: '', username: '', email: '', password: '' };

/**
 * Creates the account (keys derived here, see createAccount), has the code mailed, and
 * opens "Verify Your Email". If the code could not be sent, the modal still opens so the
 * person can use Resend Code: the account exists either way.
 */
export function SignUpForm({ invite }: { invite?: string | undefined }) {
  const [fields, setFields] = useState<SignUpFields>(EMPTY);
  const [confirmation, setConfirmation] = useState('');
  const [problems, setProblems] = useState<string[]>([]);
  const [checking, setChecking] = useState(false);
  // Asked once the form is being filled in: the address is checked against the server's allowed domains.
  const config = usePublicConfig(fields.email !== '' || fields.password !== '').data;
  // The server refuses other domains too; saying it here spares the Argon2id work and a refusal.
  const allowedDomains = config?.allowedEmailDomains ?? [];
  const [domainProblem, setDomainProblem] = useState<string | null>(null);
  const [pending, setPending] = useState<PendingVerification | null>(null);
  const toast = useToast();

  const secure = useSecureContext();
  // The prerendered page's button, before the app runs, would submit the form natively.
  const running = useAppRunning();
  const mutation = useMutation({
    // The variables hold the master password: let the mutation cache drop them at once.
    gcTime: 0,
    mutationFn: (signUp: SignUpFields) => createAccount(signUp, invite),
    onSuccess: async (created) => {
      setFields(EMPTY);
      setConfirmation('');
      toast({ kind: 'success', message: created.message, durationMs: VERIFY_TOAST_MS });
      const account = { email: created.data.email, username: created.data.username };
      let delivery: string | undefined;
      try {
        delivery = (await sendCode(account)).delivery;
      } catch (error) {
        const message = serverMessageOf(error) ?? 'We could not send the code yet. Use Resend Code to try again.';
        toast({ kind: 'error', message, durationMs: VERIFY_TOAST_MS });
      }
      setPending({ ...account, delivery });
    },
    onError: (error) => {
      toast({ kind: 'error', message: serverMessageOf(error) ?? '❌ Signup failed', durationMs: VERIFY_TOAST_MS });
    },
  });

  const set = (name: keyof SignUpFields) => (event: { target: { value: string } }) =>
    setFields((all) => ({ ...all, [name]: event.target.value }));

  // The master-password policy runs here, in the browser: a refused password is never sent.
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (checking || mutation.isPending) return;
    const outside = !emailDomainAllowed(fields.email, allowedDomains);
    setDomainProblem(outside ? domainsText(allowedDomains) : null);
    if (outside) return;
    setChecking(true);
    try {
      const found = await checkMasterPassword(fields.password, confirmation, userInputsOf(fields));
      setProblems(found);
      if (found.length === 0) mutation.mutate(fields);
    } finally {
      setChecking(false);
    }
  };

  const closeModal = useCallback(() => setPending(null), []);

  return (
    <section className="mx-auto max-w-md px-4 py-16">
      <SecureContextNotice />
      <div className={card}>
        <h1 className="mb-6 text-center text-3xl font-bold text-white">Sign Up</h1>
        {/* `dialog`: the browser itself never submits it. Before the app runs (a prerendered page) a
            native submit would send the fields, the master password with them, in the URL. */}
        <form method="dialog" onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-4">
          <TextInput
            label="Full Name"
            name="fullname"
            autoComplete="name"
            value={fields.fullname}
            onChange={set('fullname')}
            required
          />
          <TextInput
            label="Username"
            name="username"
            autoComplete="username"
            value={fields.username}
            onChange={set('username')}
            required
          />
          <TextInput
            label="Email"
            name="email"
            type="email"
            autoComplete="email"
            value={fields.email}
            onChange={set('email')}
            required
          />
          {allowedDomains.length > 0 && !domainProblem && (
            <p className="-mt-2 text-sm text-slate-400">{domainsText(allowedDomains)}</p>
          )}
          {domainProblem && (
            <p role="alert" className="-mt-2 text-sm text-rose-300">
              {domainProblem}
            </p>
          )}
          <PasswordInput
            label="Password"
            name="password"
            autoComplete="new-password"
            value={fields.password}
            onChange={set('password')}
            required
          />
          <PasswordInput
            label="Confirm password"
            name="confirm-password"
            autoComplete="new-password"
            value={confirmation}
            onChange={(event) => setConfirmation(event.target.value)}
            required
          />
          <StrengthMeter password={fields.password} userInputs={userInputsOf(fields)} />
          <MasterPasswordStaysLocal />
          <PasswordProblems problems={problems} />
          <MasterPasswordNotice />
          <button type="submit" className={buttonPrimary} disabled={mutation.isPending || checking || !secure || !running}>
            Sign Up
          </button>
          <p aria-live="polite" className="min-h-5 text-center text-sm text-slate-400">
            {mutation.isPending ? 'Creating your encryption keys…' : ''}
          </p>
        </form>
        <p className="mt-2 text-center text-sm text-slate-400">
          Already have an account?{' '}
          <Link to={paths.signIn} className="font-medium text-cyan-300 underline">
            Sign in here
          </Link>
        </p>
      </div>
      {pending && (
        <VerifyEmailModal email={pending.email} username={pending.username} delivery={pending.delivery} onClose={closeModal} />
      )}
    </section>
  );
}

/** What an attacker would try first: the person's own names and address count as guessable. */
function userInputsOf(fields: SignUpFields): string[] {
  return [fields.fullname, fields.username, fields.email].filter((value) => value !== '');
}

/** SIGNUP_ALLOWED_DOMAINS as the server compares it: the address's domain, exactly, in any case. */
function emailDomainAllowed(email: string, allowed: readonly string[]): boolean {
  if (allowed.length === 0) return true;
  return allowed.includes(
    email
      .trim()
      .slice(email.trim().lastIndexOf('@') + 1)
      .toLowerCase(),
  );
}

/** The server's own words for the domain list. */
function domainsText(allowed: readonly string[]): string {
  const list = allowed.length === 1 ? allowed[0] : `${allowed.slice(0, -1).join(', ')} or ${allowed.at(-1)}`;
  return `Sign-up on this server is limited to e-mail addresses at ${list}.`;
}
