import { readFileSync } from 'node:fs';
import autocannon, { type RequestSpec, type Result } from 'autocannon';
import { apiPaths, CLIENT_HEADER, CLIENT_HEADER_VALUE, type EntryWire } from '@lockit/contract';
import { decryptField, encryptField, newEntryId, type EntryFieldName } from '@lockit/crypto';
import { createServerDatabase } from '@lockit/test-support';
import { printHeading, printTable, verdict, median } from '../support/report';
import { clientIp, createSignedInAccount, inParallel, prepareKeys } from '../support/seed';
import { startLockitServer, startSeedingServer, type DbKind } from '../support/server-process';

const SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 60);
const CONNECTIONS = Number(process.env.BENCH_SOAK_CONNECTIONS ?? 200);
const ACCOUNTS = Number(process.env.BENCH_SOAK_ACCOUNTS ?? 50);
const SEEDED_PER_ACCOUNT = 20;
/** Pre-encrypted entries, so the bench's CPU goes to sending; a refill loop tops it up. */
const POOL = Number(process.env.BENCH_SOAK_POOL ?? SECONDS * 250);
const SAMPLE_PER_ACCOUNT = 4;
/** The spec's fields: the soak writes entries as the spec's clients do. */
type SoakField = Exclude<EntryFieldName, 'overview' | 'details'>;
const FIELDS: SoakField[] = ['serviceName', 'username', 'password', 'url', 'notes'];
const RSS_GROWTH_BUDGET = 0.1;
/** Sessions are signed in once: the access token must outlive the run (15 minutes). */
const ACCESS_LIFETIME_S = 15 * 60;

/** One entry id with a fixed set of ciphertexts: version 0 is the add, 1 and 2 alternate as updates. */
type Kit = {
  n: number;
  id: string;
  serviceName: string;
  username: string;
  url: string;
  notes: string | null;
  passwords: [string, string, string];
};
const plain = (n: number, field: SoakField, version = 0) =>
  ({
    serviceName: `Service ${n}`,
    username: `user${n}@example.com`,
    password: `pw-${n}-${version}-Xq9!`,
    url: `https://s${n}.example.com/`,
    notes: `Notes of ${n}.`,
  })[field];

/**
 * One entry as the server acknowledged it. `version`: the password version of the last 2xx
 * write, -1 for absent. `busy`: a write is in flight; an entry is never written twice at once,
 * so "the last acknowledged write" is well defined. `doubt`: the state that write would leave;
 * a 2xx clears it, and without one (no answer by the end, or a refusal) the entry stays busy
 * and either state is accepted.
 */
type Tracked = { kit: Kit; version: number; revision: number; busy: boolean; doubt?: number };
/** `present`: acknowledged and not deleted, the candidates for update and delete. */
type Account = { headers: Record<string, string>; entries: Tracked[]; present: Tracked[] };
type OpKind = 'list' | 'verify' | 'profile' | 'add' | 'update' | 'delete';
/** `to`: the password version the write leaves, -1 for a delete. */
type Op = { kind: OpKind; tracked?: Tracked; account?: Account; to?: number };

export async function soakBench(kinds: ('sqlite' | 'postgres')[] = ['sqlite']): Promise<void> {
  if (SECONDS >= ACCESS_LIFETIME_S)
    throw new Error(`BENCH_SOAK_SECONDS must stay under ${ACCESS_LIFETIME_S} (the access token lifetime)`);
  printHeading(`Soak: ${SECONDS} s, ${CONNECTIONS} connections, ${ACCOUNTS} accounts, mixed reads and writes`);
  for (const kind of kinds) await soakOne(kind);
}

async function soakOne(kind: DbKind): Promise<void> {
  const db = await createServerDatabase(kind, 'lockit-bench-soak');
  try {
    // Seeding at info level (codes are in the log), then a fresh process at warn for the load,
    // so request logging does not weigh on the figures. TRUST_PROXY: one address per account.
    const { server: seeding, inbox } = await startSeedingServer(db);
    const keys = await prepareKeys('correct horse battery staple');
    let kitNumber = 0;
    const newKit = () => makeKit(keys.vaultKey, kitNumber++);
    const accounts: Account[] = [];
    await inParallel(ACCOUNTS, 4, async (i) => {
      const session = await createSignedInAccount(seeding.url, inbox, keys, `soak${i}`, clientIp(1000 + i));
      const headers = {
        cookie: session.cookieHeader,
        'x-forwarded-for': clientIp(1000 + i),
        [CLIENT_HEADER]: CLIENT_HEADER_VALUE,
      };
      const account: Account = { headers, entries: [], present: [] };
      for (let e = 0; e < SEEDED_PER_ACCOUNT; e++) {
        const kit = await newKit();
        await session.expect(201, 'POST', apiPaths.addEntry, addBody(kit));
        account.entries.push({ kit, version: 0, revision: 1, busy: false });
      }
      account.present.push(...account.entries);
      accounts[i] = account;
    });
    await seeding.stop();
    const pool: Kit[] = [];
    while (pool.length < POOL) pool.push(await newKit());

    const server = await startLockitServer({ db, env: { TRUST_PROXY: '1' } });
    const rss: number[] = [];
    const sample = () => rss.push(rssMiB(server.pid));
    let running = true;
    const refill = (async () => {
      while (running)
        if (pool.length < POOL / 4) pool.push(await newKit());
        else await new Promise((r) => setTimeout(r, 250));
    })();
    try {
      const tally: Tally = { statuses: new Map(), built: new Map(), acknowledged: 0, anomalies: 0 };
      sample();
      const sampler = setInterval(sample, 1000);
      const result = await autocannon({
        url: server.url,
        connections: CONNECTIONS,
        duration: SECONDS,
        requests: [soakRequest(accounts, pool, tally)],
      });
      clearInterval(sampler);
      const atLoadEnd = rss.length;
      await new Promise((r) => setTimeout(r, 5000)); // in-flight work and GC settle before the end figure
      sample();
      const check = await verifyVaults(server.url, accounts, keys.vaultKey);
      report(kind, result, tally, check, rss, atLoadEnd);
    } finally {
      running = false;
      await refill;
      await server.stop();
    }
  } finally {
    await db.drop();
  }
}

/** `acknowledged`: 2xx writes, promises the final check holds the server to. `anomalies`: 404/409 on entries known to exist. */
type Tally = { statuses: Map<number, number>; built: Map<OpKind, number>; acknowledged: number; anomalies: number };

/**
 * The one autocannon request, rebuilt per send: an account in turn, an operation by weight.
 * With pipelining 1 a connection's context holds exactly the operation awaiting its answer.
 */
function soakRequest(accounts: Account[], pool: Kit[], tally: Tally): RequestSpec {
  let next = 0;
  return {
    setupRequest: (request, context) => {
      const account = accounts[next++ % accounts.length] as Account;
      const op = chooseOp(account, pool);
      context.op = op;
      tally.built.set(op.kind, (tally.built.get(op.kind) ?? 0) + 1);
      // A fresh headers object each time: autocannon writes Content-Length into the one it gets.
      const headers = { ...account.headers };
      const send = (method: string, path: string, body?: unknown) =>
        body === undefined
          ? { ...request, method, path, headers, body: '' }
          : { ...request, method, path, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) };
      const t = op.tracked;
      if (op.kind === 'add' && t) return send('POST', apiPaths.addEntry, addBody(t.kit));
      if (op.kind === 'update' && t)
        return send('PUT', apiPaths.updateEntry(t.kit.id), { ...addBody(t.kit, op.to), revision: t.revision });
      if (op.kind === 'delete' && t) return send('DELETE', `${apiPaths.deleteEntry(t.kit.id)}?revision=${t.revision}`);
      if (op.kind === 'verify') return send('POST', apiPaths.verifySession);
      return send('GET', op.kind === 'profile' ? apiPaths.profile : apiPaths.listEntries);
    },
    onResponse: (status, body, context) => {
      tally.statuses.set(status, (tally.statuses.get(status) ?? 0) + 1);
      const { kind, tracked: t, account, to } = context.op as Op;
      if (!t || !account) return;
      if (status < 200 || status >= 300) {
        if (status === 404 || status === 409) tally.anomalies++;
        return; // the entry stays busy and in doubt: never written again
      }
      tally.acknowledged++;
      if (kind === 'delete') account.present.splice(account.present.indexOf(t), 1);
      else if (kind === 'add') account.present.push(t);
      t.version = to ?? -1;
      t.revision = kind === 'add' ? 1 : kind === 'update' ? (JSON.parse(body) as { data: EntryWire }).data.revision : t.revision;
      t.busy = false;
      t.doubt = undefined;
    },
  };
}

/** 30% list, 10% verify, 10% profile, 15% add, 20% update, 15% delete: vault sizes stay level. */
function chooseOp(account: Account, pool: Kit[]): Op {
  const roll = Math.random() * 100;
  if (roll < 15) {
    const kit = pool.pop();
    if (kit) {
      const tracked: Tracked = { kit, version: -1, revision: 0, busy: true, doubt: 0 };
      account.entries.push(tracked);
      return { kind: 'add', tracked, account, to: 0 };
    }
  } else if (roll < 50) {
    for (let tries = 0; tries < 4; tries++) {
      const tracked = account.present[Math.floor(Math.random() * account.present.length)];
      if (!tracked || tracked.busy) continue;
      tracked.busy = true;
      // An update always changes the password version, so a lost one cannot pass unseen.
      tracked.doubt = roll >= 35 ? -1 : tracked.version === 1 ? 2 : 1;
      return { kind: roll < 35 ? 'update' : 'delete', tracked, account, to: tracked.doubt };
    }
  } else if (roll < 60) return { kind: 'verify' };
  else if (roll < 70) return { kind: 'profile' };
  return { kind: 'list' };
}

type VaultCheck = { checked: number; inDoubt: number; lost: number; corrupted: number; decrypted: number };

/**
 * Lists every vault through the API and holds it against what the server acknowledged: each
 * entry present with exactly the last acknowledged ciphertexts, deleted ones absent, nothing
 * unknown; entries whose last write had no clear answer may be in either state. A sample is
 * decrypted with the vault key, which also proves each ciphertext is bound to its id and field.
 */
async function verifyVaults(url: string, accounts: Account[], vaultKey: CryptoKey): Promise<VaultCheck> {
  const check: VaultCheck = { checked: 0, inDoubt: 0, lost: 0, corrupted: 0, decrypted: 0 };
  for (const account of accounts) {
    const answer = await fetch(`${url}${apiPaths.listEntries}`, { headers: account.headers });
    if (answer.status !== 200) throw new Error(`the vault list answered ${answer.status}`);
    const { data } = (await answer.json()) as { data: EntryWire[] };
    const stored = new Map(data.filter((entry) => entry.deletedAt === null).map((entry) => [entry.id, entry])); // a delete moves to Trash
    let sampled = 0;
    for (const t of account.entries) {
      // Busy at the end: the write's answer never came, so before and after are both right.
      const acceptable = t.busy ? [t.version, t.doubt ?? -1] : [t.version];
      const entry = stored.get(t.kit.id);
      stored.delete(t.kit.id);
      check.checked++;
      if (t.busy) check.inDoubt++;
      const version = entry && acceptable.find((v) => v >= 0 && sameCiphertexts(entry, t.kit, v));
      if (!entry) check.lost += acceptable.includes(-1) ? 0 : 1;
      else if (version === undefined) check.corrupted++;
      if (!entry || version === undefined) continue;
      for (const field of sampled++ < SAMPLE_PER_ACCOUNT ? FIELDS : []) {
        const ciphertext = entry[field];
        if (ciphertext === null) continue;
        const ok =
          (await decryptField(vaultKey, entry.id, field, ciphertext).catch(() => undefined)) === plain(t.kit.n, field, version);
        check[ok ? 'decrypted' : 'corrupted']++;
        if (!ok) break; // one corrupted entry counts once
      }
    }
    check.corrupted += stored.size; // entries nobody wrote
  }
  return check;
}

function sameCiphertexts(entry: EntryWire, kit: Kit, version: number): boolean {
  return (
    entry.serviceName === kit.serviceName &&
    entry.username === kit.username &&
    entry.password === kit.passwords[version] &&
    entry.url === kit.url &&
    entry.notes === kit.notes
  );
}

function addBody(kit: Kit, version = 0) {
  return {
    id: kit.id,
    serviceName: kit.serviceName,
    username: kit.username,
    password: kit.passwords[version],
    url: kit.url,
    notes: kit.notes,
  };
}

async function makeKit(vaultKey: CryptoKey, n: number): Promise<Kit> {
  const id = newEntryId();
  const seal = (field: SoakField, version = 0) => encryptField(vaultKey, id, field, plain(n, field, version));
  const [serviceName, username, url, notes, p0, p1, p2] = await Promise.all([
    seal('serviceName'),
    seal('username'),
    seal('url'),
    n % 4 === 0 ? seal('notes') : null,
    seal('password', 0),
    seal('password', 1),
    seal('password', 2),
  ]);
  return { n, id, serviceName, username, url, notes, passwords: [p0, p1, p2] };
}

function rssMiB(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : 0;
}

function report(kind: DbKind, result: Result, tally: Tally, check: VaultCheck, rss: number[], atLoadEnd: number): void {
  const fivexx = [...tally.statuses].filter(([code]) => code >= 500).reduce((sum, [, count]) => sum + count, 0);
  const byStatus = [...tally.statuses]
    .sort(([a], [b]) => a - b)
    .map(([code, count]) => `${count}×${code}`)
    .join(', ');
  // Flat: the second half of the load does not keep climbing, as a leak would with every request.
  const w = Math.max(1, Math.min(10, Math.floor(atLoadEnd / 4)));
  const half = Math.floor(atLoadEnd / 2);
  const mid = median(rss.slice(half - Math.floor(w / 2), half - Math.floor(w / 2) + w));
  const growth = mid > 0 ? (median(rss.slice(atLoadEnd - w, atLoadEnd)) - mid) / mid : 0;
  const mib = (value: number | undefined) => (value ?? 0).toFixed(0);
  const row = (name: string, value: string, budget = '', ok?: boolean) => [
    name,
    value,
    budget,
    ok === undefined ? '' : verdict(ok),
  ];
  printTable(
    `${kind}: ${SECONDS} s, ${CONNECTIONS} connections, ${ACCOUNTS} accounts`,
    ['figure', 'value', 'budget', ''],
    [
      row('requests', `${result.requests.total} (sent: ${[...tally.built].map(([op, n]) => `${op} ${n}`).join(', ')})`),
      row(
        'req/s (mean) · latency p50 / p99 ms',
        `${result.requests.average.toFixed(0)} · ${result.latency.p50} / ${result.latency.p99}`,
      ),
      row('statuses', byStatus || 'none'),
      row('5xx answers', String(fivexx), '0', fivexx === 0),
      row('errors / timeouts', `${result.errors} / ${result.timeouts}`, '0', result.errors + result.timeouts === 0),
      row('writes acknowledged (2xx)', String(tally.acknowledged)),
      row('404/409 on known entries', String(tally.anomalies), '0', tally.anomalies === 0),
      row('entries checked (in flight at the end)', `${check.checked} (${check.inDoubt})`),
      row('lost entries', String(check.lost), '0', check.lost === 0),
      row('corrupted entries', String(check.corrupted), '0', check.corrupted === 0),
      row('fields decrypted from a sample', String(check.decrypted)),
      row('RSS start / peak / end MiB', `${mib(rss[0])} / ${mib(Math.max(...rss))} / ${mib(rss[rss.length - 1])}`),
      row(
        'RSS growth, mid-load to load end',
        `${(growth * 100).toFixed(1)}%`,
        `< ${RSS_GROWTH_BUDGET * 100}%`,
        growth < RSS_GROWTH_BUDGET,
      ),
    ],
  );
}
