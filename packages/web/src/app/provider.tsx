import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { ToastProvider } from '@/components/ui/toast';
import { Keyring } from '@/lib/keyring';
import { KeyringProvider } from '@/lib/keyring-context';
import { createQueryClient } from '@/lib/query-client';
import { useIdleLock } from '@/lib/use-idle-lock';

interface AppProviderProps {
  children: ReactNode;
  /** Tests pass their own to inspect them; the app makes one of each per page load. */
  queryClient?: QueryClient;
  keyring?: Keyring;
}

export function AppProvider({ children, queryClient, keyring }: AppProviderProps) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  const [ring] = useState(() => keyring ?? new Keyring());
  return (
    <QueryClientProvider client={client}>
      <KeyringProvider keyring={ring}>
        <IdleLock />
        <ToastProvider>{children}</ToastProvider>
      </KeyringProvider>
    </QueryClientProvider>
  );
}

/** The idle lock runs on every page, whichever is shown. */
function IdleLock() {
  useIdleLock();
  return null;
}
