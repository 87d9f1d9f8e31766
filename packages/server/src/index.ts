export { buildApp, type AppDeps } from './app';
export { loadConfig, parseEnv, ConfigError } from './config/load-config';
export { configEnvSchema } from './config/config-schema';
export type { AppConfig, DatabaseConfig, TimingSettings } from './config/app-config';
export { DEFAULT_TIMING } from './config/app-config';
export { DEFAULT_RATE_LIMITS, type RateLimitSettings } from './config/rate-limit-settings';
export { createDatabase } from './db/create-database';
export { migrateToLatest } from './db/migrate';
export type { Mailer, VerificationMail } from './mail/mailer';
