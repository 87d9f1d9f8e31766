import {
  apiPaths,
  formatVaultState,
  parseVaultState,
  VAULT_STATE_HEADER,
  VAULT_STATE_REQUIRED,
  VAULT_STATE_STALE,
  type EntryWire,
  type FolderWire,
} from '@lockit/contract';
import {
  entryElement,
  folderElement,
  sealVaultState,
  sumOfElements,
  trashedElementOf,
  verifyVaultState,
  sumFromState,
} from '@lockit/crypto';
import { route, routePrefix, type FakeAnswer, type FakeRequest, type FakeRoute } from './fake-api';

/** The writes that change the vault's set (the server's list, decisions 0053 and 0061). */
const WRITES = [
  route('POST', apiPaths.addEntry),
  routePrefix('PUT', apiPaths.updateEntry('')),
  routePrefix('DELETE', apiPaths.deleteEntry('')),
  routePrefix('POST', apiPaths.restoreEntry('')),
  routePrefix('DELETE', apiPaths.purgeEntry('')),
  route('POST', apiPaths.folders),
  routePrefix('PUT', apiPaths.folder('')),
  routePrefix('DELETE', apiPaths.folder('')),
];

/**
 * The server's side of the vault state over fakeEntryRoutes' routes, as packages/server does
 * it: the list and folder answers carry the stored state; a write with a state applies only
 * when the stored counter is one below it (else 409 vault-state-stale, nothing written); a
 * write without one only while none is stored (else 428); PUT /api/vault/state sets the first.
 * It stores what it is sent and never makes a state, like the real one.
 */
export function withVaultState(routes: Record<string, FakeRoute>, initial: string | null = null) {
  const held = { state: initial };
  const counter = () => (held.state === null ? 0 : parseVaultState(held.state)!.counter);
  const refusal = (status: number, code: string): FakeAnswer => ({
    status,
    body: { message: code === VAULT_STATE_STALE ? 'Changed elsewhere.' : 'Reload.', code, state: held.state },
  });
  const withHeader = (answer: FakeAnswer): FakeAnswer =>
    answer === 'network-error' || held.state === null
      ? answer
      : { ...answer, headers: { ...answer.headers, [VAULT_STATE_HEADER]: held.state } };
  const answer = (handler: FakeRoute | undefined, request: FakeRequest) =>
    handler === undefined
      ? { status: 404, body: { message: 'Not found.' } }
      : typeof handler === 'function'
        ? handler(request)
        : handler;

  const wrapped: Record<string, FakeRoute> = { ...routes };
  for (const key of [route('GET', apiPaths.listEntries), route('GET', apiPaths.folders)]) {
    wrapped[key] = async (request) => withHeader(await answer(routes[key], request));
  }
  for (const key of WRITES) {
    wrapped[key] = async (request) => {
      const sent = request.headers[VAULT_STATE_HEADER];
      if (sent === undefined && held.state !== null) return refusal(428, VAULT_STATE_REQUIRED);
      const parsed = sent === undefined ? null : parseVaultState(sent);
      if (sent !== undefined && parsed === null)
        return { status: 400, body: { message: 'x-lockit-vault-state must be a vault state' } };
      if (parsed && parsed.counter !== counter() + 1) return refusal(409, VAULT_STATE_STALE);
      const result = await answer(routes[key], request);
      if (sent !== undefined && result !== 'network-error' && result.status < 300) held.state = sent;
      return result;
    };
  }
  wrapped[route('PUT', apiPaths.vaultState)] = (request) => {
    const state = (request.body as { state?: unknown } | undefined)?.state;
    const parsed = typeof state === 'string' ? parseVaultState(state) : null;
    if (parsed === null) return { status: 400, body: { message: 'state must be a vault state' } };
    if (held.state !== null || parsed.counter !== 1) return refusal(409, VAULT_STATE_STALE);
    held.state = state as string;
    return { status: 200, body: { message: 'OK', data: { state: held.state, vaultRevision: 1 } } };
  };
  return { routes: wrapped, held };
}

/**
 * The state `entries` (live and in Trash) and `folders` have, computed from scratch (what a
 * fresh browser's check computes), to compare with the one the writes advanced step by step.
 * `withTrash` false: a version 1 state's live set only.
 */
export async function stateOfStore(
  key: CryptoKey,
  entries: Iterable<EntryWire>,
  folders: Iterable<FolderWire>,
  withTrash = true,
) {
  const all = [...entries];
  const live = all.filter((entry) => entry.deletedAt === null);
  const trashed = withTrash ? all.filter((entry) => entry.deletedAt !== null) : [];
  const allFolders = [...folders];
  const elements = await Promise.all([
    ...live.map((entry) => entryElement(key, entry)),
    ...trashed.map((entry) => trashedElementOf(key, entry, Date.parse(entry.deletedAt!))),
    ...allFolders.map((folder) => folderElement(key, folder)),
  ]);
  return { entries: live.length, trashed: trashed.length, folders: allFolders.length, sum: sumOfElements(elements) };
}

/** Whether `state` verifies under `key` and describes exactly `store` (see stateOfStore). */
export async function stateDescribes(
  key: CryptoKey,
  state: string | null,
  entries: Iterable<EntryWire>,
  folders: Iterable<FolderWire>,
): Promise<boolean> {
  const parsed = state === null ? null : parseVaultState(state);
  if (parsed === null || !(await verifyVaultState(key, parsed))) return false;
  const expected = await stateOfStore(key, entries, folders, parsed.trashed !== undefined);
  const sum = sumFromState(parsed);
  return (
    parsed.entries === expected.entries &&
    (parsed.trashed ?? 0) === expected.trashed &&
    parsed.folders === expected.folders &&
    sum.every((byte, i) => byte === expected.sum[i])
  );
}

/** A state sealed under `key` (as a device that opened the vault makes it) for `entries` and `folders`. */
export async function sealedStateOf(
  key: CryptoKey,
  entries: Iterable<EntryWire>,
  folders: Iterable<FolderWire> = [],
  counter = 1,
): Promise<string> {
  return formatVaultState(await sealVaultState(key, { counter, ...(await stateOfStore(key, entries, folders)) }));
}
