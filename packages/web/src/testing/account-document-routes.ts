import { apiPaths, type AccountDocumentWire } from '@lockit/contract';
import { routePrefix, type FakeAnswer, type FakeRequest, type FakeRoute } from './fake-api';

/**
 * The account-document routes as the real server answers them (compare and swap on the
 * revision, 409 with the current document, `data: null` for a kind never saved), over an
 * in-memory map the test can read and tamper with.
 */
export function accountDocumentRoutes(initial: Record<string, AccountDocumentWire> = {}) {
  const documents = new Map<string, AccountDocumentWire>(Object.entries(initial));
  const prefix = apiPaths.accountDocument('');
  const kindOf = (request: FakeRequest) => decodeURIComponent(request.path.slice(prefix.length));
  const get = (request: FakeRequest): FakeAnswer => ({
    status: 200,
    body: { message: 'Success', data: documents.get(kindOf(request)) ?? null },
  });
  const put = (request: FakeRequest): FakeAnswer => {
    const kind = kindOf(request);
    const { ciphertext, revision } = request.body as { ciphertext: string; revision: number };
    const current = documents.get(kind) ?? null;
    if ((current?.revision ?? 0) !== revision) {
      return { status: 409, body: { message: 'This was changed on another device. Reload and try again.', data: current } };
    }
    const saved: AccountDocumentWire = {
      kind: kind as AccountDocumentWire['kind'],
      ciphertext,
      revision: revision + 1,
      updatedAt: new Date().toISOString(),
    };
    documents.set(kind, saved);
    return { status: 200, body: { message: 'Saved', data: saved } };
  };
  const routes: Record<string, FakeRoute> = { [routePrefix('GET', prefix)]: get, [routePrefix('PUT', prefix)]: put };
  return { routes, documents };
}
