import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { useProfileQuery } from '@/api/get-profile';
import { paths } from '@/config/paths';
import { useBrowserValue } from '@/lib/browser-value';
import { maybeSignedIn } from '@/lib/session-hint';
import { SignUpForm } from './sign-up-form';

export const ALREADY_SIGNED_IN_REDIRECT_MS = 2000;

/**
 * Sign-up: first checks for a session (GET profile); a signed-in visitor is sent to /profile.
 * A browser that surely has no session (no session hint: the check sends nothing and fails at
 * once) sees the form from the start, as the prerendered page shows it; "Checking..." is for
 * the wait on a real check.
 */
export function SignUpPage() {
  const profile = useProfileQuery();
  const mayHaveSession = useBrowserValue(maybeSignedIn, false);
  const checked = profile.isFetchedAfterMount;
  const signedIn = checked && profile.isSuccess;

  if (!checked && mayHaveSession) return <Centered>Checking...</Centered>;
  if (signedIn) return <AlreadySignedIn />;
  return <SignUpForm />;
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
