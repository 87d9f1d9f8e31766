import { useState } from 'react';
import { Link, NavLink, useNavigate } from 'react-router';
import { useLogout } from '@/api/logout';
import { paths } from '@/config/paths';
import { useSignUpOffered } from '@/config/signup-mode';
import { MobileMenu } from './mobile-menu';
import { navItems, navLinkClass } from './nav-items';
import { useSignedIn } from './use-signed-in';

/** Fixed header: links by session state; below the md width a slide-in menu instead. */
export function Header() {
  const signedIn = useSignedIn();
  const navigate = useNavigate();
  const [menuOpen, setMenuOpen] = useState(false);
  const logout = useLogout({ onSignedOut: () => navigate(paths.signIn) });
  const items = navItems(signedIn, useSignUpOffered());

  return (
    <header className="fixed inset-x-0 top-0 z-40 border-b border-slate-800 bg-slate-950/95">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between px-4">
        <Link to={paths.home} className="text-xl font-extrabold tracking-wide">
          <span className="bg-gradient-to-r from-cyan-400 to-fuchsia-500 bg-clip-text text-transparent">Lockit</span>
        </Link>
        <nav aria-label="Main" className="hidden items-center gap-6 md:flex">
          {items.map((item) => (
            <NavLink key={item.to} to={item.to} className={navLinkClass}>
              {item.label}
            </NavLink>
          ))}
          {signedIn && (
            <button
              type="button"
              onClick={() => logout.mutate()}
              className="rounded-lg border border-slate-600 px-3 py-1 font-medium text-slate-200 hover:bg-slate-800"
            >
              Logout
            </button>
          )}
        </nav>
        <MobileMenu
          open={menuOpen}
          onOpenChange={setMenuOpen}
          items={items}
          onLogout={signedIn ? () => logout.mutate() : undefined}
        />
      </div>
    </header>
  );
}
