import { createContext, useContext, type ReactNode } from 'react';
import { SIGNUP_MODE_META, SIGNUP_MODES, type SignupMode } from '@lockit/contract/paths';
import { useQuery } from '@tanstack/react-query';

/**
 * Who may sign up on this server (SIGNUP_MODE, decision 0044). The server writes the mode into
 * every HTML page it sends (a meta element), and the build prerenders each landing page once
 * per mode, so the first render, the prerendered HTML and the hydration agree: a page that
 * must not offer sign-up never shows a Sign Up link, not even for a frame.
 */

/** The mode this page was served for; undefined where it carries none (the dev server, an older build). */
export function signupModeOfPage(): SignupMode | undefined {
  if (typeof document === 'undefined') return undefined;
  const value = document.querySelector(`meta[name="${SIGNUP_MODE_META}"]`)?.getAttribute('content');
  return SIGNUP_MODES.find((mode) => mode === value);
}

const SignupModeContext = createContext<SignupMode | undefined>(undefined);

export function SignupModeProvider({ mode, children }: { mode: SignupMode | undefined; children: ReactNode }) {
  return <SignupModeContext.Provider value={mode}>{children}</SignupModeContext.Provider>;
}

/**
 * The sign-up mode: the page's own from the first render; on a page without one, the
 * server's public config once it answers. Undefined until known, which offers no sign-up.
 */
export function useSignupMode(): SignupMode | undefined {
  const pageMode = useContext(SignupModeContext);
  // The same query as usePublicConfig (src/api/get-public-config.ts), loaded on demand: the
  // header is in every first paint, which carries no schemas (see @lockit/contract/paths).
  const config = useQuery({
    queryKey: ['public-config'],
    queryFn: () => import('@/api/get-public-config').then((module) => module.getPublicConfig()),
    staleTime: Infinity,
    retry: false,
    enabled: pageMode === undefined,
  });
  return pageMode ?? config.data?.signupMode;
}

/** True only when anyone may sign up: the only mode with Sign Up links and buttons. */
export function useSignUpOffered(): boolean {
  return useSignupMode() === 'open';
}

/** What a page says instead of offering sign-up, by mode. */
export const NO_SIGN_UP_TEXT = {
  invite: 'Sign-up on this server is by invitation. Open the invitation link you were sent.',
  closed: 'Sign-up is closed on this server. Ask its operator for an account.',
} as const satisfies Record<Exclude<SignupMode, 'open'>, string>;
