import { apiPaths, type DeliveryStatus } from '@lockit/contract';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** How often the verify step asks while the mail is still being sent, and for how long at most. */
export const DELIVERY_POLL_MS = 1000;
export const DELIVERY_POLL_LIMIT = 30;

/** GET /api/email/delivery/{ticket}: pending, sent or failed (decision 0043). */
export async function mailDeliveryStatus(ticket: string): Promise<DeliveryStatus> {
  const answer = await apiRequest(apiPaths.mailDelivery(ticket), {
    method: 'GET',
    schema: (contract) => contract.mailDeliveryResponseSchema,
  });
  return answer.data.status;
}

/**
 * The delivery of a verification mail, asked every second while pending. Any failure of
 * the question itself (an older server, a ticket this server does not know) shows nothing:
 * the screen then says what it always said.
 */
export function useMailDelivery(ticket: string | undefined) {
  return useQuery({
    queryKey: ['mail-delivery', ticket],
    queryFn: () => mailDeliveryStatus(ticket ?? ''),
    enabled: ticket !== undefined,
    retry: false,
    gcTime: 0,
    refetchInterval: (query) =>
      query.state.data === 'pending' && query.state.dataUpdateCount < DELIVERY_POLL_LIMIT ? DELIVERY_POLL_MS : false,
  });
}
