import { paths } from '@/config/paths';

export interface NavItem {
  label: string;
  to: string;
}

/**
 * The header's links for a signed-in or signed-out visitor (Logout is a button, added apart).
 * Sign Up only where anyone may sign up (decision 0044).
 */
export function navItems(signedIn: boolean, signUpOffered: boolean): NavItem[] {
  const common: NavItem[] = [
    { label: 'Home', to: paths.home },
    { label: 'About', to: paths.about },
  ];
  return signedIn
    ? [...common, { label: 'Vault', to: paths.vault }, { label: 'Profile', to: paths.profile }]
    : [...common, { label: 'Sign In', to: paths.signIn }, ...(signUpOffered ? [{ label: 'Sign Up', to: paths.signUp }] : [])];
}

/** Active links are underlined (NavLink also sets aria-current="page"). */
export function navLinkClass({ isActive }: { isActive: boolean }): string {
  const base = 'rounded px-1 py-0.5 font-medium transition hover:text-cyan-300';
  return isActive ? `${base} text-cyan-300 underline decoration-2 underline-offset-8` : `${base} text-slate-200`;
}
