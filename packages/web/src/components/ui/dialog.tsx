import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { createPortal } from 'react-dom';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export interface DialogProps {
  title: string;
  /** Escape and the dialog's own cancel buttons call this. */
  onClose: () => void;
  children: ReactNode;
  /** Where focus goes on open; default: the first focusable element. */
  initialFocusRef?: RefObject<HTMLElement | null>;
  /** 'wide' for content side by side (e.g. two versions of an entry); default 'normal'. */
  size?: 'normal' | 'wide';
}

/**
 * The one modal dialog of the app: role dialog, aria-modal, named by its title. Focus moves
 * in on open, Tab and Shift+Tab stay inside, Escape closes, and focus returns to the element
 * that opened it. Mount it to open, unmount it to close.
 */
export function Dialog({ title, onClose, children, initialFocusRef, size = 'normal' }: DialogProps) {
  const titleId = useId();
  const panelRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const panel = panelRef.current;
    const first = initialFocusRef?.current ?? panel?.querySelector<HTMLElement>(FOCUSABLE) ?? panel;
    first?.focus();
    return () => {
      if (opener?.isConnected) opener.focus();
    };
  }, [initialFocusRef]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onClose();
      return;
    }
    if (event.key !== 'Tab' || !panelRef.current) return;
    const focusable = [...panelRef.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) {
      event.preventDefault();
      return;
    }
    const active = document.activeElement;
    if (event.shiftKey && (active === first || !panelRef.current.contains(active))) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (active === last || !panelRef.current.contains(active))) {
      event.preventDefault();
      first.focus();
    }
  };

  return createPortal(
    <div className="fixed inset-0 z-50 flex items-center justify-center bg-slate-950/80 p-4">
      {/* The keydown handler traps Tab inside the dialog (WAI-ARIA dialog pattern); jsx-a11y only
          exempts a native <dialog>, whose showModal() would take focus handling away from us. */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions */}
      <div
        ref={panelRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        onKeyDown={onKeyDown}
        className={`w-full ${size === 'wide' ? 'max-w-3xl' : 'max-w-md'} rounded-2xl border border-slate-700 bg-slate-900 p-6 shadow-2xl outline-none`}
      >
        <h2 id={titleId} className="mb-4 text-xl font-semibold text-white">
          {title}
        </h2>
        {children}
      </div>
    </div>,
    document.body,
  );
}
