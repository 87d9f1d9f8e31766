import { useQuery } from '@tanstack/react-query';
import { getKeyMaterial } from '@/api/get-key-material';

/**
 * Whether the Unlock screen offers "Unlock with a passkey": the key-material answer says if a
 * passkey of the account holds an unlock key. Only a hint (a server that lies just shows or
 * hides a button); false while unknown or when the call fails, so the password form never waits.
 */
export function usePasskeyUnlockOffered(): boolean {
  const query = useQuery({
    queryKey: ['key-material', 'passkey-unlock-offered'],
    queryFn: async () => (await getKeyMaterial()).passkeyUnlock === true,
    retry: false,
    gcTime: 0,
    refetchOnMount: 'always',
  });
  return query.data === true;
}
