import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';

export type ToastKind = 'success' | 'error';

export interface ToastOptions {
  kind: ToastKind;
  message: string;
  /** How long the toast stays, in milliseconds (the spec fixes 2 s or 3 s per screen). */
  durationMs: number;
}

interface ToastItem extends ToastOptions {
  id: number;
}

type Notify = (toast: ToastOptions) => void;

const ToastContext = createContext<Notify | null>(null);

/**
 * Holds the app's toasts above the routes, so a toast shown just before a navigation stays
 * for its whole duration on the next screen.
 */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<ToastItem[]>([]);
  const nextId = useRef(1);

  const dismiss = useCallback((id: number) => setToasts((all) => all.filter((t) => t.id !== id)), []);
  const notify = useCallback<Notify>((toast) => {
    const id = nextId.current++;
    setToasts((all) => [...all, { ...toast, id }]);
  }, []);

  return (
    <ToastContext.Provider value={notify}>
      {children}
      <div
        aria-live="polite"
        className="pointer-events-none fixed inset-x-0 top-20 z-[60] flex flex-col items-center gap-2 px-4 sm:items-end"
      >
        {toasts.map((toast) => (
          <Toast key={toast.id} toast={toast} onDone={dismiss} />
        ))}
      </div>
    </ToastContext.Provider>
  );
}

/** One toast: green for success, red for an error; it removes itself after `durationMs`. */
export function Toast({ toast, onDone }: { toast: ToastItem; onDone: (id: number) => void }) {
  useEffect(() => {
    const timer = setTimeout(() => onDone(toast.id), toast.durationMs);
    return () => clearTimeout(timer);
  }, [toast.id, toast.durationMs, onDone]);

  // emerald-700 and red-700 under white text: 5.5:1 and 6.5:1, above WCAG AA's 4.5:1.
  const colours =
    toast.kind === 'success' ? 'border-emerald-400/40 bg-emerald-700 text-white' : 'border-red-400/40 bg-red-700 text-white';
  return (
    <div
      role={toast.kind === 'error' ? 'alert' : 'status'}
      data-kind={toast.kind}
      className={`pointer-events-auto flex w-full max-w-sm items-start gap-3 rounded-lg border px-4 py-3 text-sm shadow-lg ${colours}`}
    >
      <p className="flex-1">{toast.message}</p>
      <button
        type="button"
        aria-label="Dismiss notification"
        className="rounded px-1 leading-none opacity-80 hover:opacity-100"
        onClick={() => onDone(toast.id)}
      >
        ×
      </button>
    </div>
  );
}

/** `const toast = useToast(); toast({ kind: 'error', message, durationMs: 2000 })`. */
export function useToast(): Notify {
  const notify = useContext(ToastContext);
  if (!notify) throw new Error('useToast must be used inside <ToastProvider>.');
  return notify;
}
