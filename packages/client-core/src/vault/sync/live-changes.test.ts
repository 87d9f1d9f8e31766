import { describe, expect, it } from 'vitest';
import { liveChanges, type EventSourceLike } from './live-changes';

/**
 * The platform's EventSource, scripted: the test plays the server's events into it. What is
 * under test is liveChanges' handling of them (coalescing, reconnection, the end reasons); the
 * real stream against the real server is in test/vault-sync.test.ts.
 */
class ScriptedSource implements EventSourceLike {
  readyState = 1;
  onerror: ((event: never) => unknown) | null = null;
  closed = false;
  readonly #listeners = new Map<string, Array<(event: { data?: unknown }) => void>>();
  addEventListener(type: string, listener: (event: { data?: unknown }) => void): void {
    this.#listeners.set(type, [...(this.#listeners.get(type) ?? []), listener]);
  }
  close(): void {
    this.closed = true;
    this.readyState = 2;
  }
  emit(type: string, data: unknown): void {
    for (const listener of this.#listeners.get(type) ?? []) listener({ data: JSON.stringify(data) });
  }
  fail(): void {
    this.readyState = 2;
    (this.onerror as ((event: unknown) => void) | null)?.({});
  }
}

function harness(options: { coalesceMs?: number; retryMs?: number; catchUpMs?: number } = {}) {
  const sources: ScriptedSource[] = [];
  let catchUps = 0;
  let signedOut = 0;
  const live = liveChanges({
    open: () => {
      const source = new ScriptedSource();
      sources.push(source);
      return source;
    },
    url: 'https://vault.example/api/vault/events',
    coalesceMs: options.coalesceMs ?? 20,
    retryMs: options.retryMs ?? 30,
    catchUp: async () => {
      catchUps += 1;
      await new Promise((resolve) => setTimeout(resolve, options.catchUpMs ?? 0));
    },
    onSignedOut: () => {
      signedOut += 1;
    },
  });
  return { live, sources, catchUps: () => catchUps, signedOut: () => signedOut };
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('liveChanges', () => {
  it('catches up at ready, and once for a burst of notices', async () => {
    const h = harness();
    h.sources[0]!.emit('ready', { seq: 4 });
    await wait(5);
    expect(h.catchUps()).toBe(1);
    for (let seq = 5; seq < 25; seq += 1) h.sources[0]!.emit('change', { seq, id: `id-${seq}` });
    await wait(60);
    expect(h.catchUps()).toBe(2);
    h.live.close();
  });

  it('ignores a notice that is not one', async () => {
    const h = harness();
    h.sources[0]!.emit('change', { seq: 'no' });
    h.sources[0]!.emit('change', 'not json at all');
    await wait(60);
    expect(h.catchUps()).toBe(0);
    h.live.close();
  });

  it('stops for good when the session ended, and reopens after a wait when the server lost its bus', async () => {
    const h = harness();
    h.sources[0]!.emit('end', { reason: 'unavailable' });
    expect(h.sources[0]!.closed).toBe(true);
    await wait(5);
    expect(h.catchUps()).toBe(1); // what it may have missed, through the cursor
    await wait(60);
    expect(h.sources).toHaveLength(2);

    h.sources[1]!.emit('end', { reason: 'signed-out' });
    await wait(150);
    expect(h.signedOut()).toBe(1);
    expect(h.sources).toHaveLength(2);
    expect(h.sources[1]!.closed).toBe(true);
  });

  it('reopens a stream the platform gave up on (a 503 or 429), waiting longer each time', async () => {
    const h = harness({ retryMs: 20 });
    h.sources[0]!.fail();
    await wait(35);
    expect(h.sources).toHaveLength(2);
    h.sources[1]!.fail();
    await wait(25);
    expect(h.sources).toHaveLength(2); // 40 ms now, not 20
    await wait(40);
    expect(h.sources).toHaveLength(3);
    h.live.close();
    expect(h.sources[2]!.closed).toBe(true);
  });

  it('opens nothing and catches up no more once closed', async () => {
    const h = harness();
    h.live.close();
    h.sources[0]!.emit('change', { seq: 1 });
    h.sources[0]!.emit('end', { reason: 'unavailable' });
    await wait(80);
    expect(h.catchUps()).toBe(0);
    expect(h.sources).toHaveLength(1);
  });
});
