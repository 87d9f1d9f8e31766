import type { FastifyPluginAsync } from 'fastify';
import type { AppConfig } from './config/app-config';
import type { Db } from './db/schema';
import type { Repositories } from './db/repositories/index';
import type { SessionService } from './auth/session-service';
import type { RateLimits } from './security/rate-limits';
import type { Mailer } from './mail/mailer';
import type { BackgroundTasks } from './background-tasks';
import type { VaultListCache } from './vault/vault-list-cache';

/** What every route may use; built once by buildApp and passed explicitly, never global. */
export interface AppContext {
  config: AppConfig;
  db: Db;
  repos: Repositories;
  sessions: SessionService;
  rateLimits: RateLimits;
  mailer: Mailer;
  background: BackgroundTasks;
  /** Serialized vault lists by revision (ciphertexts only). */
  vaultLists: VaultListCache;
  /** Epoch milliseconds; tests inject a clock instead of faking global timers. */
  now: () => number;
}

export type RoutePlugin = FastifyPluginAsync<{ ctx: AppContext }>;
