import { useEffect, useRef } from 'react';
import { createPortal } from 'react-dom';
import { NavLink } from 'react-router';
import { useBrowserValue } from '@/lib/browser-value';
import { useAppRunning } from '@/lib/use-app-running';
import { navLinkClass, type NavItem } from './nav-items';

interface MobileMenuProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  items: NavItem[];
  /** Present when signed in. */
  onLogout: (() => void) | undefined;
}

/**
 * Below the md width: a menu button and a panel sliding in from the right, 90% wide and at
 * most max-w-sm. It closes on its close button, on a chosen link, on Escape, and on a click
 * outside it. While closed it is inert and hidden from assistive technology. The panel is
 * portalled to <body>: the header's backdrop blur would otherwise become the containing block
 * of its fixed position and clip it to the header's height. It is portalled once mounted: the
 * build's prerendered HTML has no <body> to portal to, and the hydrating render must match it.
 */
const documentBody = () => document.body;

export function MobileMenu({ open, onOpenChange, items, onLogout }: MobileMenuProps) {
  const panelRef = useRef<HTMLDivElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const body = useBrowserValue<HTMLElement | null>(documentBody, null);
  const running = useAppRunning();

  useEffect(() => {
    if (!open) return;
    closeRef.current?.focus();
    const onPointerDown = (event: MouseEvent | TouchEvent) => {
      const target = event.target as Node | null;
      if (!target || panelRef.current?.contains(target) || toggleRef.current?.contains(target)) return;
      onOpenChange(false);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      onOpenChange(false);
      toggleRef.current?.focus();
    };
    document.addEventListener('mousedown', onPointerDown);
    document.addEventListener('touchstart', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('mousedown', onPointerDown);
      document.removeEventListener('touchstart', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open, onOpenChange]);

  const close = () => onOpenChange(false);

  return (
    <div className="md:hidden">
      <button
        ref={toggleRef}
        type="button"
        aria-label="Open menu"
        aria-expanded={open}
        aria-controls="mobile-menu"
        // Until the app runs (a prerendered page) there is no panel to open.
        disabled={!running}
        onClick={() => onOpenChange(!open)}
        className="rounded-lg p-2 text-slate-200 hover:bg-slate-800"
      >
        <svg aria-hidden="true" viewBox="0 0 24 24" className="h-6 w-6" fill="none" stroke="currentColor" strokeWidth="2">
          <path d="M4 6h16M4 12h16M4 18h16" strokeLinecap="round" />
        </svg>
      </button>
      {body &&
        createPortal(
          <>
            <div
              aria-hidden="true"
              className={`fixed inset-0 z-40 bg-slate-950/60 md:hidden transition-opacity ${open ? 'opacity-100' : 'pointer-events-none opacity-0'}`}
            />
            <div
              ref={panelRef}
              id="mobile-menu"
              aria-hidden={!open}
              inert={!open}
              className={`fixed inset-y-0 right-0 z-50 flex w-[90%] max-w-sm flex-col gap-6 border-l border-slate-800 bg-slate-900 p-6 shadow-2xl transition-transform duration-300 md:hidden ${
                open ? 'translate-x-0' : 'translate-x-full'
              }`}
            >
              <div className="flex justify-end">
                <button
                  ref={closeRef}
                  type="button"
                  aria-label="Close menu"
                  onClick={close}
                  className="rounded-lg p-2 text-slate-200 hover:bg-slate-800"
                >
                  <svg
                    aria-hidden="true"
                    viewBox="0 0 24 24"
                    className="h-6 w-6"
                    fill="none"
                    stroke="currentColor"
                    strokeWidth="2"
                  >
                    <path d="M6 6l12 12M18 6L6 18" strokeLinecap="round" />
                  </svg>
                </button>
              </div>
              <nav aria-label="Mobile" className="flex flex-col gap-4 text-lg">
                {items.map((item) => (
                  <NavLink key={item.to} to={item.to} className={navLinkClass} onClick={close}>
                    {item.label}
                  </NavLink>
                ))}
                {onLogout && (
                  <button
                    type="button"
                    onClick={() => {
                      close();
                      onLogout();
                    }}
                    className="self-start rounded-lg border border-slate-600 px-3 py-1 font-medium text-slate-200 hover:bg-slate-800"
                  >
                    Logout
                  </button>
                )}
              </nav>
            </div>
          </>,
          body,
        )}
    </div>
  );
}
