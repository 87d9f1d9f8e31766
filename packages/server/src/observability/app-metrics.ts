import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { hashingStats } from '../auth/password-hashing';

/**
 * Why a sign-in failed. An unknown name and a wrong key are one reason on purpose: the route
 * answers them alike, and a counter that told them apart would let anyone who reads the
 * metrics test whether an account exists.
 */
export type SignInFailure = 'invalid_credentials' | 'rate_limited' | 'unverified' | 'disabled';
const SIGN_IN_FAILURES: readonly SignInFailure[] = ['invalid_credentials', 'rate_limited', 'unverified', 'disabled'];

/** The mails Lockit sends, one label value per Mailer method. */
export type MailKind = 'verification_code' | 'invite' | 'sign_up_attempt' | 'sign_in_alert';
const MAIL_KINDS: readonly MailKind[] = ['verification_code', 'invite', 'sign_up_attempt', 'sign_in_alert'];

/**
 * This app's Prometheus series. Every label value comes from a fixed set written in the code
 * (a route pattern, a reason, a limiter's name, an HTTP method and status), never from the
 * request: no user name, e-mail, id, address or vault data can become a label.
 */
export interface AppMetrics {
  /** This app's own series; the process-wide ones are in `processRegistry()`. */
  readonly registry: Registry;
  httpRequest(method: string, route: string, status: number, seconds: number): void;
  signInSucceeded(): void;
  signInFailed(reason: SignInFailure): void;
  /** `limiter` is one of the fixed names in security/rate-limits.ts. */
  rateLimitRefused(limiter: string): void;
  /** `route` is a route table entry's name (the contract's, a fixed set). */
  inputRefused(route: string): void;
  mailSent(kind: MailKind): void;
  mailFailed(kind: MailKind): void;
}

const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']);

/** Seconds; from a cached list (milliseconds) to an Argon2id sign-in on a busy machine. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** A registry of its own per app, so that several apps in one process never collide. */
export function createAppMetrics(): AppMetrics {
  const registry = new Registry();
  const registers = [registry];
  const requests = new Counter({
    name: 'lockit_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern ("unmatched" when no route matched) and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers,
  });
  const durations = new Histogram({
    name: 'lockit_http_request_duration_seconds',
    help: 'Time from a request arriving to its answer being sent, by method and route pattern.',
    labelNames: ['method', 'route'] as const,
    buckets: DURATION_BUCKETS,
    registers,
  });
  const signIns = new Counter({
    name: 'lockit_sign_ins_total',
    help: 'Successful sign-ins.',
    registers,
  });
  const signInFailures = new Counter({
    name: 'lockit_sign_in_failures_total',
    help: 'Refused sign-ins, by reason (invalid_credentials, rate_limited, unverified, disabled).',
    labelNames: ['reason'] as const,
    registers,
  });
  const refusals = new Counter({
    name: 'lockit_rate_limit_refusals_total',
    help: 'Requests refused with 429 by a rate limiter, by limiter name.',
    labelNames: ['limiter'] as const,
    registers,
  });
  const inputRefusals = new Counter({
    name: 'lockit_http_input_refused_total',
    help: 'Requests refused with 400 before their handler ran, for params, query or body the route table refuses, by route name.',
    labelNames: ['route'] as const,
    registers,
  });
  const mailsSent = new Counter({
    name: 'lockit_mails_sent_total',
    help: 'Mails handed to the mail server (or the development log), by kind.',
    labelNames: ['kind'] as const,
    registers,
  });
  const mailsFailed = new Counter({
    name: 'lockit_mails_failed_total',
    help: 'Mails that could not be sent, by kind.',
    labelNames: ['kind'] as const,
    registers,
  });
  // Every series exists from the start at 0, so rate() and alerts work before the first event.
  for (const reason of SIGN_IN_FAILURES) signInFailures.inc({ reason }, 0);
  for (const kind of MAIL_KINDS) {
    mailsSent.inc({ kind }, 0);
    mailsFailed.inc({ kind }, 0);
  }

  return {
    registry,
    httpRequest(method, route, status, seconds) {
      const knownMethod = KNOWN_METHODS.has(method) ? method : 'other';
      requests.inc({ method: knownMethod, route, status: String(status) });
      durations.observe({ method: knownMethod, route }, seconds);
    },
    signInSucceeded: () => signIns.inc(),
    signInFailed: (reason) => signInFailures.inc({ reason }),
    rateLimitRefused: (limiter) => refusals.inc({ limiter }),
    inputRefused: (route) => inputRefusals.inc({ route }),
    mailSent: (kind) => mailsSent.inc({ kind }),
    mailFailed: (kind) => mailsFailed.inc({ kind }),
  };
}

let processMetrics: Registry | undefined;

/**
 * prom-client's default metrics (process_*, nodejs_*: CPU, memory, handles, GC, event-loop
 * lag) describe the process, not one app, so there is one registry of them per process,
 * made on first use: every app in it serves the same series, and a test process that builds
 * many apps starts their monitors (event-loop delay, GC observer) once.
 */
export function processRegistry(): Registry {
  if (!processMetrics) {
    processMetrics = new Registry();
    collectDefaultMetrics({ register: processMetrics });
    registerHashingMetrics(processMetrics);
  }
  return processMetrics;
}

/** The Argon2 queue is one per process (auth/password-hashing.ts), so its gauges are too. */
function registerHashingMetrics(registry: Registry): void {
  const registers = [registry];
  new Gauge({
    name: 'lockit_hashing_running',
    help: 'Argon2 jobs (sign-in, sign-up, password change, admin sign-in) running now.',
    registers,
    collect() {
      this.set(hashingStats().running);
    },
  });
  new Gauge({
    name: 'lockit_hashing_waiting',
    help: 'Argon2 jobs waiting in the queue.',
    registers,
    collect() {
      this.set(hashingStats().waiting);
    },
  });
  new Counter({
    name: 'lockit_hashing_refused_total',
    help: 'Requests answered 503 because the Argon2 queue was full.',
    registers,
    collect() {
      this.reset();
      this.inc(hashingStats().refused);
    },
  });
}
