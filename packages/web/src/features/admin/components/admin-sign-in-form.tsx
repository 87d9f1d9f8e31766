import { useState, type FormEvent } from 'react';
import { PasswordInput } from '@/components/ui/password-input';
import { buttonPrimary, card } from '@/components/ui/styles';
import { useAdminSignIn } from '../api/admin-sign-in';
import { failureText } from '../lib/format';

/** The admin token, as `npm run admin -- hash-token` printed it; the server checks it. */
export function AdminSignInForm() {
  const [token, setToken] = useState('');
  const signIn = useAdminSignIn();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (token.trim() === '') return;
    signIn.mutate(token.trim(), { onSuccess: () => setToken('') });
  };

  return (
    <div className="mx-auto max-w-md px-4 py-16">
      <form onSubmit={onSubmit} className={`${card} flex flex-col gap-4`} aria-labelledby="admin-sign-in-title">
        <h1 id="admin-sign-in-title" className="text-2xl font-bold text-white">
          Server administration
        </h1>
        <p className="text-sm text-slate-400">
          Sign in with the admin token of this server. The session ends after 15 idle minutes.
        </p>
        <PasswordInput
          label="Admin token"
          name="admin-token"
          autoComplete="current-password"
          value={token}
          onChange={(event) => setToken(event.target.value)}
          required
        />
        {signIn.isError && (
          <p role="alert" className="text-sm text-red-400">
            {failureText(signIn.error)}
          </p>
        )}
        <button type="submit" className={buttonPrimary} disabled={signIn.isPending || token.trim() === ''}>
          {signIn.isPending ? 'Signing in...' : 'Sign in'}
        </button>
      </form>
    </div>
  );
}
