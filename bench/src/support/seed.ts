import {
  addEntries as addEntriesThroughApi,
  ApiClient,
  makeKeyMaterial,
  newAccount,
  sealEntry,
  signUpOverHttp,
  vaultKeyOf,
  FLOOR_KDF,
  addSealed,
  sealItem,
  sealUnboundItem,
  type CodeInbox,
  type KeyMaterial,
  type PlainEntry,
  type PlainItem,
} from '@lockit/test-support';
import { apiPaths, emptyOverview, type OverviewDocument } from '@lockit/contract';
import { encryptField, newEntryId, type KdfParams } from '@lockit/crypto';

export { FLOOR_KDF };

/** What a browser holds after sign-up: the keys of one master password. */
export interface SeedKeys extends KeyMaterial {
  params: KdfParams;
  authKey: string;
  vaultKey: CryptoKey;
}

/**
 * Derives keys as the web app's sign-up does. Seeded accounts share them (one KDF instead of
 * thousands); the server cannot tell, since it sees only authKey and ciphertexts.
 */
export async function prepareKeys(password: string, params: KdfParams = FLOOR_KDF): Promise<SeedKeys> {
  const material = await makeKeyMaterial(password, undefined, params);
  return { ...material, params, authKey: material.keys.authKey, vaultKey: await vaultKeyOf(material) };
}

/** A realistic entry: a random password, an address, a note on every fourth. */
export function realisticEntry(n: number): PlainEntry {
  return {
    serviceName: `Service ${n}`,
    username: `user${n}@example.com`,
    password: Buffer.from(crypto.getRandomValues(new Uint8Array(15))).toString('base64url'),
    url: `https://service${n}.example.com/login`,
    notes: n % 4 === 0 ? `Recovery codes are in the safe. Account ${n}.` : null,
  };
}

/** A realistic entry, every field a real ciphertext bound to a fresh id. */
export function encryptEntry(vaultKey: CryptoKey, n: number) {
  return sealEntry(vaultKey, realisticEntry(n));
}

/** One client address per account (the server runs with TRUST_PROXY=1 in the benches). */
export function clientIp(n: number): string {
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

/** Sign-up, the logged code, and sign-in, through the API as the web app does them. */
export async function createSignedInAccount(
  baseUrl: string,
  inbox: CodeInbox,
  keys: SeedKeys,
  username: string,
  ip: string,
): Promise<ApiClient> {
  const session = new ApiClient(baseUrl, ip);
  const account = await newAccount({ username, email: `${username}@example.test`, fullname: 'Bench User', keyMaterial: keys });
  await signUpOverHttp(session, inbox, account);
  await signIn(session, username, keys.authKey);
  return session;
}

export async function signIn(session: ApiClient, username: string, authKey: string): Promise<void> {
  await session.expect(200, 'POST', apiPaths.prelogin, { username });
  await session.expect(200, 'POST', apiPaths.login, { username, password: authKey });
}

/** Adds `count` realistic entries through the API, `concurrency` requests at a time. */
export async function addEntries(session: ApiClient, vaultKey: CryptoKey, count: number, concurrency = 8): Promise<void> {
  await addEntriesThroughApi(session, vaultKey, { count, make: realisticEntry }, concurrency);
}

/** Runs `task(i)` for i in [0, count) with at most `concurrency` at once. */
export async function inParallel(count: number, concurrency: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}

/** The folders of a realistic vault, nested by name as the web app nests them. */
export const FOLDER_NAMES = [
  'Work',
  'Work/Banking',
  'Work/Cloud',
  'Personal',
  'Personal/Shopping',
  'Personal/Health',
  'Travel',
  'Family',
  'Finance',
  'Finance/Taxes',
];

/**
 * Creates the folders through the API, their names sealed as the web app seals them (bound
 * to `folder:<id>`, a namespace no entry id can take); returns their ids in order.
 */
export async function addFolders(session: ApiClient, vaultKey: CryptoKey, names = FOLDER_NAMES): Promise<string[]> {
  const ids: string[] = [];
  for (const name of names) {
    const id = newEntryId();
    await session.expect(201, 'POST', apiPaths.folders, {
      id,
      name: await encryptField(vaultKey, `folder:${id}`, 'serviceName', name),
    });
    ids.push(id);
  }
  return ids;
}

const TYPES: Array<OverviewDocument['type']> = [
  'login',
  'login',
  'login',
  'login',
  'login',
  'login',
  'login',
  'note',
  'card',
  'identity',
];

/**
 * Entry n of a realistic vault of the item format: 7 in 10 logins with 1-3 web addresses,
 * a third of them with a TOTP seed and a tag; a secure note, a card and an identity in each
 * ten; three in four in one of `folderIds`; one in 25 a favourite.
 */
export function realisticItem(n: number, folderIds: readonly string[]): PlainItem {
  const type = TYPES[n % TYPES.length]!;
  const base = {
    ...emptyOverview(type),
    folderId: n % 4 === 0 || folderIds.length === 0 ? null : folderIds[n % folderIds.length]!,
    favorite: n % 25 === 0,
  };
  if (type === 'note')
    return {
      serviceName: `Note ${n}`,
      username: '',
      password: '',
      notes: `Wi-Fi at the cabin: network ${n}.\nKey under the mat.`,
      overview: base,
    };
  if (type === 'card') {
    const number = `4242 4242 4242 ${String(n % 10_000).padStart(4, '0')}`;
    return {
      serviceName: `Card ${n}`,
      username: '',
      password: '',
      overview: {
        ...base,
        card: { holder: `Holder ${n}`, brand: 'Visa', last4: number.slice(-4), expMonth: '12', expYear: '2030' },
      },
      details: { v: 1, totp: null, hidden: {}, card: { number, code: '123' }, identity: null },
    };
  }
  if (type === 'identity') {
    const identity = {
      title: '',
      firstName: `First${n}`,
      middleName: '',
      lastName: `Last${n}`,
      email: `person${n}@example.com`,
      phone: '',
      company: '',
      address1: '',
      address2: '',
      city: 'Zurich',
      state: '',
      postalCode: '',
      country: 'CH',
    };
    return { serviceName: `Identity ${n}`, username: '', password: '', overview: { ...base, identity } };
  }
  const withTotp = n % 3 === 0;
  const urls = [
    `https://service${n}.example.com/login`,
    `https://m.service${n}.example.com`,
    `https://service${n}.example.org`,
  ].slice(0, 1 + (n % 3));
  return {
    serviceName: `Service ${n}`,
    username: `user${n}@example.com`,
    password: Buffer.from(crypto.getRandomValues(new Uint8Array(15))).toString('base64url'),
    notes: n % 4 === 0 ? `Recovery codes are in the safe. Account ${n}.` : null,
    overview: { ...base, urls, tags: withTotp ? [`tag${n % 7}`] : [], hasTotp: withTotp },
    details: withTotp ? { v: 1, totp: 'JBSWY3DPEHPK3PXP', hidden: {}, card: null, identity: null } : null,
  };
}

/** Adds `count` realistic item-format entries (and the folders) through the API. */
export async function addRealisticItems(
  session: ApiClient,
  vaultKey: CryptoKey,
  count: number,
  concurrency = 8,
  { unbound = false }: { unbound?: boolean } = {},
): Promise<Array<Record<string, unknown>>> {
  const folderIds = await addFolders(session, vaultKey);
  // `unbound`: as Lockit saved items before bound overviews (decision 0055), for a comparison.
  const seal = unbound ? sealUnboundItem : sealItem;
  return addSealed(session, count, (n) => seal(vaultKey, realisticItem(n, folderIds)), concurrency);
}

/** Saves `times` new versions of a stored entry, so it has a long history. */
export async function editRepeatedly(
  session: ApiClient,
  vaultKey: CryptoKey,
  stored: Record<string, unknown>,
  n: number,
  times: number,
): Promise<void> {
  let revision = stored.revision as number;
  const id = stored.id as string;
  for (let edit = 1; edit <= times; edit++) {
    const item = realisticItem(n, []);
    const body = await sealItem(vaultKey, { ...item, password: `${item.password}-v${edit}` }, id);
    const answer = await session.expect<{ data: { revision: number } }>(200, 'PUT', apiPaths.updateEntry(id), {
      ...body,
      revision,
    });
    revision = answer.data.revision;
  }
}

/**
 * What the vault's search reads of realistic item n (name, user name, web addresses, tags and
 * folder name, lower-cased, as lib/entry-filter.ts folds them), so a bench knows how many rows
 * each typed prefix must leave.
 */
export function realisticSearchText(n: number): string {
  // The folder names stand in for the ids: realisticItem picks the n-th the same way.
  const item = realisticItem(n, FOLDER_NAMES);
  const folder = item.overview.folderId ?? '';
  return [item.serviceName, item.username, ...item.overview.urls, ...item.overview.tags, folder].join('\n').toLowerCase();
}
