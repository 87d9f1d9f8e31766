import type { FastifyPluginAsync } from 'fastify';
import type { AppConfig } from './config/app-config';
import type { Db } from './db/schema';
import type { Repositories } from './db/repositories/index';
import type { SessionService } from './auth/session-service';
import type { RateLimits } from './security/rate-limits';
import type { Mailer } from './mail/mailer';
import type { MailDeliveries } from './mail/mail-deliveries';
import type { BackgroundTasks } from './background-tasks';
import type { VaultListCache } from './vault/vault-list-cache';
import type { AppMetrics } from './observability/app-metrics';
import type { AdminContext } from './admin/admin-context';
import type { VaultStreams } from './live/vault-streams';
import type { AttachmentStore } from './attachments/attachment-store';

/** What every route may use; built once by buildApp and passed explicitly, never global. */
export interface AppContext {
  config: AppConfig;
  db: Db;
  repos: Repositories;
  sessions: SessionService;
  rateLimits: RateLimits;
  mailer: Mailer;
  background: BackgroundTasks;
  /** Delivery tickets of verification mails: pending, sent or failed (decision 0043). */
  mailDeliveries: MailDeliveries;
  /** Serialized vault lists by revision (ciphertexts only). */
  vaultLists: VaultListCache;
  /** This app's Prometheus series; labels only ever from fixed sets. */
  metrics: AppMetrics;
  /** Sealed attachment content: files beside SQLite, or rows in PostgreSQL (decision 0071). */
  attachments: AttachmentStore;
  /** Epoch milliseconds; tests inject a clock instead of faking global timers. */
  now: () => number;
  /** Live vault notices: the event streams of this process and the bus to the others (decision 0066). */
  live: VaultStreams;
  /** The admin API's sessions and limits; undefined when ADMIN_TOKEN is unset (no admin routes). */
  admin: AdminContext | undefined;
}

export type RoutePlugin = FastifyPluginAsync<{ ctx: AppContext }>;
