import { deriveKeysFromPassword, KdfParamsRejectedError, randomSalt } from '@lockit/crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FLOOR_KDF } from '@/testing/crypto-fixtures';
import { deriveKeys, KeyDerivationError } from './derive-keys';
import { runKdfRequest, type KdfRequest } from './kdf-protocol';

/**
 * A stand-in for the browser's Worker that runs the worker's own request handler in this
 * thread, so the page <-> worker protocol is exercised without a real thread (jsdom has none).
 */
class InProcessWorker {
  static instances: InProcessWorker[] = [];
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: ((event: ErrorEvent) => void) | null = null;
  terminated = false;
  posted: KdfRequest[] = [];
  constructor(
    readonly url: URL,
    readonly options: WorkerOptions,
  ) {
    InProcessWorker.instances.push(this);
  }
  postMessage(request: KdfRequest) {
    this.posted.push(request);
    void runKdfRequest(request).then((response) => this.onmessage?.({ data: response } as MessageEvent));
  }
  terminate() {
    this.terminated = true;
  }
}

class BrokenWorker extends InProcessWorker {
  override postMessage() {
    queueMicrotask(() => this.onerror?.({ preventDefault() {} } as ErrorEvent));
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
        override postMessage() {
          queueMicrotask(() => this.onmessage?.({ data: { ok: false, rejection: null } } as MessageEvent));
        }
      },
    );
    await expect(deriveKeys('pw', randomSalt(), FLOOR_KDF)).rejects.toBeInstanceOf(KeyDerivationError);
  });
});
