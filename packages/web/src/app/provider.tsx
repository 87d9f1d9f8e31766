import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import type { SignupMode } from '@lockit/contract/paths';
import { ToastProvider } from '@/components/ui/toast';
import { SignupModeProvider } from '@/config/signup-mode';
import { Keyring } from '@/lib/keyring';
import { KeyringProvider } from '@/lib/keyring-context';
import { createQueryClient } from '@/lib/query-client';
import { useReloadUnlock, type TabKeyStoreSource } from '@/lib/reload-unlock/use-reload-unlock';
import { useIdleLock } from '@/lib/use-idle-lock';

interface AppProviderProps {
  children: ReactNode;
  /** Tests pass their own to inspect them; the app makes one of each per page load. */
  queryClient?: QueryClient;
  keyring?: Keyring;
  /** Who may sign up: the page's meta element in the browser, the build's mode when prerendering. */
  signupMode?: SignupMode | undefined;
  /** Where a reload's tab keys live: IndexedDB by default; tests (jsdom has none) pass their own. */
  tabKeyStore?: TabKeyStoreSource | undefined;
}

export function AppProvider({ children, queryClient, keyring, signupMode, tabKeyStore }: AppProviderProps) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  const [ring] = useState(() => keyring ?? new Keyring());
  return (
    <QueryClientProvider client={client}>
      <KeyringProvider keyring={ring}>
        <ReloadUnlock store={tabKeyStore} />
        <IdleLock />
        <SignupModeProvider mode={signupMode}>
          <ToastProvider>{children}</ToastProvider>
        </SignupModeProvider>
      </KeyringProvider>
    </QueryClientProvider>
  );
}

/** The idle lock runs on every page, whichever is shown. */
function IdleLock() {
  useIdleLock();
  return null;
}

/** A reload keeps the vault open (decision 0048); its effects run only in the running app. */
function ReloadUnlock({ store }: { store: TabKeyStoreSource | undefined }) {
  useReloadUnlock(store);
  return null;
}
