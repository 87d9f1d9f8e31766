import {
  apiPaths,
  attachmentPaths,
  commitKeyRotationRequestSchema,
  keyRotationPartRequestSchema,
  parseVaultState,
  startKeyRotationRequestSchema,
  type AccountAttachmentWire,
  type AccountDocumentWire,
  type EntryVersionWire,
  type EntryWire,
  type FolderWire,
} from '@lockit/contract';
import { route, routePrefix, type FakeAnswer, type FakeRequest, type FakeRoute } from './fake-api';

export interface RotationServerVault {
  entries: EntryWire[];
  histories?: Record<string, EntryVersionWire[]>;
  folders?: FolderWire[];
  documents?: AccountDocumentWire[];
  /** The account's files (none by default): a rotation re-wraps each one's key. */
  attachments?: AccountAttachmentWire[];
  state?: string | null;
  vaultRevision?: number;
}

export interface RotationServerAccount {
  authKey: string;
  kdf: unknown;
  salt: string;
  protectedKey: string;
  keyGeneration: number;
  /** Absent: 0, an account that never rotated. */
  keyEpoch?: number;
}

type Staged = {
  entries: Map<string, unknown>;
  versions: Map<string, unknown>;
  folders: Map<string, unknown>;
  documents: Map<string, unknown>;
  attachments: Map<string, unknown>;
};

/**
 * The routes a key rotation uses, answering as the real server does (decision 0054) over an
 * in-memory vault the test reads afterwards: the reads (state, list, histories, folders,
 * documents, the account's files), the start (auth key and vault revision checked), the parts (contract schema,
 * unknown ids refused) and the commit (complete set, generation + 1, counter + 1; then every
 * ciphertext replaced, entry and folder revisions bumped). `staged` keeps every part body.
 */
export function keyRotationRoutes(vault: RotationServerVault, account: RotationServerAccount) {
  const server = {
    entries: vault.entries.map((entry) => ({ ...entry })),
    histories: new Map(Object.entries(vault.histories ?? {}).map(([id, versions]) => [id, versions.map((v) => ({ ...v }))])),
    folders: (vault.folders ?? []).map((folder) => ({ ...folder })),
    documents: new Map((vault.documents ?? []).map((document) => [document.kind, { ...document }])),
    attachments: (vault.attachments ?? []).map((file) => ({ ...file })),
    state: vault.state ?? null,
    vaultRevision: vault.vaultRevision ?? 7,
    account: { ...account },
    rotationId: null as string | null,
    staged: null as Staged | null,
    parts: [] as unknown[],
    commits: [] as unknown[],
  };
  const ok = (data: unknown, status = 200): FakeAnswer => ({ status, body: { message: 'OK', data } });
  const refuse = (status: number, message: string): FakeAnswer => ({ status, body: { message } });
  const versionKey = (entryId: string, revision: number) => `${entryId}:${revision}`;

  const start = (request: FakeRequest): FakeAnswer => {
    const body = startKeyRotationRequestSchema.safeParse(request.body);
    if (!body.success) return refuse(400, 'Invalid start.');
    if (body.data.authKey !== server.account.authKey) return refuse(401, 'Current password is incorrect.');
    if (body.data.vaultRevision !== server.vaultRevision)
      return refuse(409, 'Your vault changed while Lockit read it. Try again.');
    server.rotationId = crypto.randomUUID();
    server.staged = { entries: new Map(), versions: new Map(), folders: new Map(), documents: new Map(), attachments: new Map() };
    return ok(
      {
        id: server.rotationId,
        keyGeneration: server.account.keyGeneration,
        expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
      },
      201,
    );
  };

  const rotationOf = (request: FakeRequest) => decodeURIComponent(request.path.split('/')[4] ?? '');

  const part = (request: FakeRequest): FakeAnswer => {
    if (rotationOf(request) !== server.rotationId || !server.staged) return refuse(404, 'No such key rotation.');
    const body = keyRotationPartRequestSchema.safeParse(request.body);
    if (!body.success) return refuse(400, 'Invalid part.');
    const { entries = [], versions = [], folders = [], documents = [], attachments = [] } = body.data;
    const unknown =
      entries.some((e) => !server.entries.some((s) => s.id === e.id)) ||
      versions.some((v) => !(server.histories.get(v.entryId) ?? []).some((s) => s.revision === v.revision)) ||
      folders.some((f) => !server.folders.some((s) => s.id === f.id)) ||
      documents.some((d) => !server.documents.has(d.kind)) ||
      attachments.some((a) => !server.attachments.some((s) => s.id === a.id && s.entryId === a.entryId));
    if (unknown) return refuse(400, 'Unknown items in the part.');
    server.parts.push(body.data);
    for (const e of entries) server.staged.entries.set(e.id, e);
    for (const v of versions) server.staged.versions.set(versionKey(v.entryId, v.revision), v);
    for (const f of folders) server.staged.folders.set(f.id, f);
    for (const d of documents) server.staged.documents.set(d.kind, d);
    for (const a of attachments) server.staged.attachments.set(a.id, a);
    const { staged } = server;
    return ok({
      entries: staged.entries.size,
      versions: staged.versions.size,
      folders: staged.folders.size,
      documents: staged.documents.size,
      attachments: staged.attachments.size,
    });
  };

  const commit = (request: FakeRequest): FakeAnswer => {
    if (rotationOf(request) !== server.rotationId || !server.staged) return refuse(404, 'No such key rotation.');
    const body = commitKeyRotationRequestSchema.safeParse(request.body);
    if (!body.success) return refuse(400, 'Invalid commit.');
    server.commits.push(body.data);
    const { staged } = server;
    const versionCount = [...server.histories.values()].reduce((sum, versions) => sum + versions.length, 0);
    if (
      staged.entries.size !== server.entries.length ||
      staged.versions.size !== versionCount ||
      staged.folders.size !== server.folders.length ||
      staged.documents.size !== server.documents.size ||
      staged.attachments.size !== server.attachments.length
    ) {
      return refuse(409, 'The key rotation is incomplete.');
    }
    if (body.data.keyGeneration !== server.account.keyGeneration + 1) return refuse(409, 'Wrong key generation.');
    if (body.data.keyEpoch !== (server.account.keyEpoch ?? 0) + 1) return refuse(409, 'Wrong key generation.');
    const storedCounter = server.state === null ? 0 : (parseVaultState(server.state)?.counter ?? 0);
    if (parseVaultState(body.data.vaultState)?.counter !== storedCounter + 1) return refuse(409, 'Stale vault state.');
    server.entries = server.entries.map((entry) => ({
      ...entry,
      ...(staged.entries.get(entry.id) as object),
      revision: entry.revision + 1,
    }));
    for (const [id, versions] of server.histories) {
      server.histories.set(
        id,
        versions.map((v) => {
          const { entryId: _entryId, ...texts } = staged.versions.get(versionKey(id, v.revision)) as { entryId: string };
          return { ...v, ...texts };
        }),
      );
    }
    server.folders = server.folders.map((folder) => ({
      ...folder,
      name: (staged.folders.get(folder.id) as { name: string }).name,
      revision: folder.revision + 1,
    }));
    for (const [kind, document] of server.documents) {
      const { document: ciphertext } = staged.documents.get(kind) as { document: string };
      server.documents.set(kind, { ...document, ciphertext });
    }
    server.attachments = server.attachments.map((file) => ({
      ...file,
      wrappedKey: (staged.attachments.get(file.id) as { wrappedKey: string }).wrappedKey,
    }));
    server.account.protectedKey = body.data.protectedKey;
    server.account.keyGeneration = body.data.keyGeneration;
    server.account.keyEpoch = body.data.keyEpoch;
    server.state = body.data.vaultState;
    server.vaultRevision += 1;
    server.rotationId = null;
    server.staged = null;
    return ok({
      keyGeneration: body.data.keyGeneration,
      vaultRevision: server.vaultRevision,
      passkeyUnlocksRemoved: 1,
      sessionsEnded: 2,
    });
  };

  const documentPrefix = apiPaths.accountDocument('');
  const routes: Record<string, FakeRoute> = {
    [route('GET', apiPaths.vaultState)]: () => ok({ state: server.state, vaultRevision: server.vaultRevision }),
    [route('GET', apiPaths.listEntries)]: () => ok(server.entries),
    [route('POST', apiPaths.entryHistories)]: (request) => {
      const { ids } = request.body as { ids: string[] };
      return ok(ids.map((id) => ({ id, versions: server.histories.get(id) ?? [] })));
    },
    [route('GET', apiPaths.folders)]: () => ok(server.folders),
    [route('GET', attachmentPaths.all)]: () => ok(server.attachments),
    [routePrefix('GET', documentPrefix)]: (request) =>
      ok(
        server.documents.get(decodeURIComponent(request.path.slice(documentPrefix.length)) as AccountDocumentWire['kind']) ??
          null,
      ),
    [route('GET', apiPaths.keyMaterial)]: () =>
      ok({
        kdf: server.account.kdf,
        salt: server.account.salt,
        protectedKey: server.account.protectedKey,
        keyGeneration: server.account.keyGeneration,
        keyEpoch: server.account.keyEpoch ?? 0,
      }),
    [route('POST', apiPaths.keyRotation)]: start,
    [routePrefix('PUT', `${apiPaths.keyRotation}/`)]: part,
    [routePrefix('POST', `${apiPaths.keyRotation}/`)]: commit,
  };
  return { routes, server, handlers: { start, part, commit } };
}
