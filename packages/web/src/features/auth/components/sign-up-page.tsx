import { useEffect } from 'react';
import { Link } from 'react-router';
import { card } from '@/components/ui/styles';
import { useNavigate, useSearchParams } from 'react-router';
import { INVITE_QUERY_PARAM } from '@lockit/contract/paths';
import { useProfileQuery } from '@/api/get-profile';
import { paths } from '@/config/paths';
import { NO_SIGN_UP_TEXT, useSignupMode } from '@/config/signup-mode';
import { useBrowserValue } from '@/lib/browser-value';
import { maybeSignedIn } from '@/lib/session-hint';
import { SignUpForm } from './sign-up-form';

export const ALREADY_SIGNED_IN_REDIRECT_MS = 2000;

/**
 * Sign-up: first checks for a session (GET profile); a signed-in visitor is sent to /profile.
 * A browser that surely has no session (no session hint: the check sends nothing and fails at
 * once) sees the form from the start, as the prerendered page shows it; "Checking..." is for
 * the wait on a real check.
 *
 * Who may sign up (decision 0044): in closed mode, and in invite mode without an invitation
 * link, the page says so and shows no form; with `?invite=<token>` the form sends the token.
 */
export function SignUpPage() {
  const mode = useSignupMode();
  const invite = useSearchParams()[0].get(INVITE_QUERY_PARAM);
  if (mode === undefined) return <Centered>Checking...</Centered>;
  if (mode === 'closed' || (mode === 'invite' && !invite)) return <NoSignUp text={NO_SIGN_UP_TEXT[mode]} />;
  return <SignUpOrSignedIn invite={mode === 'invite' ? (invite ?? undefined) : undefined} />;
}

function SignUpOrSignedIn({ invite }: { invite: string | undefined }) {
  const profile = useProfileQuery();
  const mayHaveSession = useBrowserValue(maybeSignedIn, false);
  const checked = profile.isFetchedAfterMount;
  const signedIn = checked && profile.isSuccess;

  if (!checked && mayHaveSession) return <Centered>Checking...</Centered>;
  if (signedIn) return <AlreadySignedIn />;
  return <SignUpForm invite={invite} />;
}

function NoSignUp({ text }: { text: string }) {
  return (
    <section className="mx-auto max-w-md px-4 py-16">
      <div className={card}>
        <h1 className="mb-4 text-center text-3xl font-bold text-white">Sign Up</h1>
        <p className="text-center text-slate-300">{text}</p>
        <p className="mt-4 text-center text-sm text-slate-400">
          Already have an account?{' '}
          <Link to={paths.signIn} className="font-medium text-cyan-300 underline">
            Sign in here
          </Link>
        </p>
      </div>
    </section>
  );
}

function AlreadySignedIn() {
  const navigate = useNavigate();
  useEffect(() => {
    const timer = setTimeout(() => navigate(paths.profile), ALREADY_SIGNED_IN_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [navigate]);
  return <Centered>You&apos;re already logged in!</Centered>;
}

function Centered({ children }: { children: string }) {
  return <p className="py-24 text-center text-lg text-slate-300">{children}</p>;
}
