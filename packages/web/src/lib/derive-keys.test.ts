import { deriveKeysFromPassword, KdfParamsRejectedError, randomSalt } from '@lockit/crypto';
import { serveJobs } from '@lockit/client-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FLOOR_KDF } from '@/testing/crypto-fixtures';
import { deriveKeys, KeyDerivationError } from './derive-keys';
import { kdfJob, type KdfRequest } from './kdf-protocol';

type Listener = (event: { data?: unknown; preventDefault?: () => void }) => void;

/**
 * A stand-in for the browser's Worker that runs the KDF worker's own job (kdfJob) behind the
 * client core's job protocol in this thread, so the page <-> worker protocol is exercised
 * without a real thread (jsdom has none).
 */
class InProcessWorker {
  static instances: InProcessWorker[] = [];
  terminated = false;
  posted: KdfRequest[] = [];
  readonly listeners = { message: new Set<Listener>(), error: new Set<Listener>() };
  #workerSide: Listener | null = null;
  constructor(
    readonly url: URL,
    readonly options: WorkerOptions,
  ) {
    InProcessWorker.instances.push(this);
    serveJobs(
      {
        addEventListener: (_type, listener) => (this.#workerSide = listener as Listener),
        postMessage: (message) => queueMicrotask(() => this.listeners.message.forEach((listener) => listener({ data: message }))),
      },
      (request: KdfRequest) => this.work(request),
    );
  }
  work(request: KdfRequest) {
    return kdfJob(request);
  }
  addEventListener(type: 'message' | 'error', listener: Listener) {
    this.listeners[type].add(listener);
  }
  removeEventListener(type: 'message' | 'error', listener: Listener) {
    this.listeners[type].delete(listener);
  }
  postMessage(message: { request: KdfRequest }) {
    this.posted.push(message.request);
    queueMicrotask(() => this.#workerSide?.({ data: message }));
  }
  terminate() {
    this.terminated = true;
  }
}

class BrokenWorker extends InProcessWorker {
  override postMessage() {
    queueMicrotask(() => this.listeners.error.forEach((listener) => listener({ preventDefault() {} })));
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
  InProcessWorker.instances = [];
});

describe('deriveKeys', () => {
  it('derives the same keys as the crypto package where Worker is missing', async () => {
    expect(typeof Worker).toBe('undefined');
    const salt = randomSalt();
    const keys = await deriveKeys('correct horse', salt, FLOOR_KDF);
    const expected = await deriveKeysFromPassword('correct horse', salt, FLOOR_KDF);
    expect(keys.authKey).toBe(expected.authKey);
    expect(keys.wrapKey.extractable).toBe(false);
  });

  it('runs Argon2id in a module worker, terminates it, and gives the same keys', async () => {
    vi.stubGlobal('Worker', InProcessWorker);
    const salt = randomSalt();
    const keys = await deriveKeys('correct horse', salt, FLOOR_KDF);
    const expected = await deriveKeysFromPassword('correct horse', salt, FLOOR_KDF);
    expect(keys.authKey).toBe(expected.authKey);
    const [worker] = InProcessWorker.instances;
    expect(worker?.options.type).toBe('module');
    expect(worker?.url.pathname).toMatch(/kdf-worker\.ts$/);
    expect(worker?.terminated).toBe(true);
  });

  it('refuses params outside the policy before starting any worker', async () => {
    vi.stubGlobal('Worker', InProcessWorker);
    const weak = { ...FLOOR_KDF, memoryKiB: 1024 };
    await expect(deriveKeys('pw', randomSalt(), weak)).rejects.toBeInstanceOf(KdfParamsRejectedError);
    expect(InProcessWorker.instances).toHaveLength(0);
  });

  it('passes a salt refusal from the worker on as KdfParamsRejectedError with its message', async () => {
    vi.stubGlobal('Worker', InProcessWorker);
    const error = await deriveKeys('pw', 'short', FLOOR_KDF).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KdfParamsRejectedError);
    expect((error as KdfParamsRejectedError).reason).toBe('salt');
    expect((error as Error).message).toMatch(/salt/);
  });

  it('falls back to the page when the worker cannot run', async () => {
    vi.stubGlobal('Worker', BrokenWorker);
    const salt = randomSalt();
    const keys = await deriveKeys('pw', salt, FLOOR_KDF);
    expect(keys.authKey).toBe((await deriveKeysFromPassword('pw', salt, FLOOR_KDF)).authKey);
    expect(InProcessWorker.instances[0]?.terminated).toBe(true);
  });

  it('reports other worker failures without details', async () => {
    vi.stubGlobal(
      'Worker',
      class extends InProcessWorker {
        override async work() {
          return { answer: { ok: false as const, rejection: null } };
        }
      },
    );
    await expect(deriveKeys('pw', randomSalt(), FLOOR_KDF)).rejects.toBeInstanceOf(KeyDerivationError);
  });
});
