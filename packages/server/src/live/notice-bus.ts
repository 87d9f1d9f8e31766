import type { ChangeNotice } from '@lockit/contract';

/**
 * What processes tell each other about a vault (decision 0066): a change committed (its
 * notice), or "check the sessions of this account's streams" (a session ended somewhere).
 * Ids and sequence numbers only: nothing secret ever travels on the bus.
 */
export type BusMessage = { kind: 'change'; userId: string; notice: ChangeNotice } | { kind: 'recheck'; userId: string };

/**
 * How the processes serving one database reach each other: Redis pub/sub with REDIS_URL,
 * else PostgreSQL LISTEN/NOTIFY on PostgreSQL, else this process alone.
 *
 * Invariants: `publish` never throws and never waits on the bus for the write that calls it
 * (a notice is a hint; the cursor is the truth). While the bus is down no message is
 * delivered, so every open stream is ended (`onDown`) and clients catch up with the cursor.
 */
export interface NoticeBus {
  readonly kind: 'memory' | 'redis' | 'postgres';
  publish(message: BusMessage): void;
  /** Every message of every process, this one's included. */
  subscribe(listener: (message: BusMessage) => void): () => void;
  /** Called each time the bus loses its connection. */
  onDown(listener: () => void): () => void;
  /** Whether messages are delivered now (a stream is refused while not). */
  isUp(): boolean;
  close(): Promise<void>;
}

/** Listeners of one process; shared by every implementation. */
export function createListeners<T extends unknown[]>() {
  const listeners = new Set<(...args: T) => void>();
  return {
    add(listener: (...args: T) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emit(...args: T): void {
      for (const listener of [...listeners]) listener(...args);
    },
  };
}

/** The bus of a single process (SQLite without Redis): delivery is a function call. */
export function createMemoryNoticeBus(): NoticeBus {
  const messages = createListeners<[BusMessage]>();
  const down = createListeners<[]>();
  return {
    kind: 'memory',
    publish: (message) => queueMicrotask(() => messages.emit(message)),
    subscribe: messages.add,
    onDown: down.add,
    isUp: () => true,
    close: async () => {},
  };
}

/** A message as it travels between processes, parsed back with care: a bad one is dropped. */
export function parseBusMessage(text: string): BusMessage | null {
  try {
    const value = JSON.parse(text) as Partial<BusMessage> & { notice?: unknown };
    if (typeof value.userId !== 'string') return null;
    if (value.kind === 'recheck') return { kind: 'recheck', userId: value.userId };
    const notice = value.notice as Partial<ChangeNotice> | undefined;
    if (value.kind !== 'change' || typeof notice?.seq !== 'number') return null;
    return {
      kind: 'change',
      userId: value.userId,
      notice: {
        seq: notice.seq,
        ...(typeof notice.id === 'string' ? { id: notice.id } : {}),
        ...(notice.reset === true ? { reset: true as const } : {}),
      },
    };
  } catch {
    return null;
  }
}
