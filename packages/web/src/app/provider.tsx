import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import type { SignupMode } from '@lockit/contract/paths';
import { ToastProvider } from '@/components/ui/toast';
import { SignupModeProvider } from '@/config/signup-mode';
import { Keyring } from '@/lib/keyring';
import { KeyringProvider } from '@/lib/keyring-context';
import { createQueryClient } from '@/lib/query-client';
import { useIdleLock } from '@/lib/use-idle-lock';

interface AppProviderProps {
  children: ReactNode;
  /** Tests pass their own to inspect them; the app makes one of each per page load. */
  queryClient?: QueryClient;
  keyring?: Keyring;
  /** Who may sign up: the page's meta element in the browser, the build's mode when prerendering. */
  signupMode?: SignupMode | undefined;
}

export function AppProvider({ children, queryClient, keyring, signupMode }: AppProviderProps) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  const [ring] = useState(() => keyring ?? new Keyring());
  return (
    <QueryClientProvider client={client}>
      <KeyringProvider keyring={ring}>
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
