import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';
import type { DbKind } from './server-process';

export const PG_URL = process.env.LOCKIT_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface BenchDatabase {
  kind: DbKind;
  /** DATABASE_URL for the server. */
  url: string;
  /** Runs SQL in the bench's schema (PostgreSQL only: EXPLAIN, sizes). */
  query: <Row extends object>(text: string, values?: unknown[]) => Promise<Row[]>;
  drop: () => Promise<void>;
}

/** A fresh SQLite file in `dir`, or a fresh PostgreSQL schema dropped afterwards. */
export async function newDatabase(kind: DbKind, dir: string): Promise<BenchDatabase> {
  if (kind === 'sqlite') {
    return {
      kind,
      url: join(dir, 'lockit.sqlite'),
      query: async () => {
        throw new Error('SQL from the bench is for PostgreSQL only');
      },
      drop: async () => {},
    };
  }
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.query(`set search_path to ${schema}`);
  const url = new URL(PG_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    kind,
    url: url.toString(),
    query: async <Row extends object>(text: string, values?: unknown[]) =>
      (await admin.query(text, values)).rows as Row[],
    drop: async () => {
      await admin.query(`drop schema ${schema} cascade`);
      await admin.end();
    },
  };
}
