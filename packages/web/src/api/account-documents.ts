import { accountDocumentResponseSchema, apiPaths, type AccountDocumentKind, type AccountDocumentWire } from '@lockit/contract';
import { apiRequest } from '@/lib/api-client';
import { ApiError, UnexpectedResponseError } from '@/lib/api-errors';

/** GET /api/account/documents/{kind}: the account's document of that kind, still sealed; null if never saved. */
export async function getAccountDocument(kind: AccountDocumentKind): Promise<AccountDocumentWire | null> {
  const answer = await apiRequest(apiPaths.accountDocument(kind), {
    method: 'GET',
    schema: accountDocumentResponseSchema,
    protectedCall: true,
  });
  return answer.data;
}

export type PutAccountDocumentOutcome =
  | { status: 'saved'; document: AccountDocumentWire }
  /** 409: someone saved since `revision`; `current` is the document now (null: none). */
  | { status: 'conflict'; current: AccountDocumentWire | null };

/**
 * PUT /api/account/documents/{kind} `{ ciphertext, revision }` (0: a new document). A 409
 * is an outcome, not an error; every other failure throws (ApiError, NetworkError...).
 */
export async function putAccountDocument(
  kind: AccountDocumentKind,
  ciphertext: string,
  revision: number,
): Promise<PutAccountDocumentOutcome> {
  try {
    const answer = await apiRequest(apiPaths.accountDocument(kind), {
      method: 'PUT',
      body: { ciphertext, revision },
      schema: accountDocumentResponseSchema,
      protectedCall: true,
    });
    // A save answers with the document saved; without it the answer is not one Lockit understands.
    if (!answer.data) throw new UnexpectedResponseError(200);
    return { status: 'saved', document: answer.data };
  } catch (error) {
    if (error instanceof ApiError && error.status === 409) {
      const parsed = accountDocumentResponseSchema.safeParse(error.body);
      if (parsed.success) return { status: 'conflict', current: parsed.data.data };
    }
    throw error;
  }
}
