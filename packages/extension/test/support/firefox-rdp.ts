import { connect, type Socket } from 'node:net';

/**
 * A client of Firefox's Remote Debugging Protocol, the socket `web-ext run` installs the add-on
 * through: JSON packets framed as `<length>:<json>`, one actor per address. A packet without a
 * `type` answers the oldest request to its actor; a packet with one is an event. Only what the
 * Firefox test asks is here: the add-on list, the tab list, a navigation and an evaluation.
 */
type Packet = Record<string, unknown> & { from: string };

export interface AddonForm {
  actor: string;
  id: string;
  manifestURL: string;
  /** "RUNNING" once the background page has loaded (Firefox's about:debugging shows the same). */
  backgroundScriptStatus?: string;
  /** What Firefox itself found wrong in the manifest at install. */
  warnings: string[];
}

export interface TabForm {
  actor: string;
  url: string;
}

export class FirefoxDebugger {
  readonly #socket: Socket;
  #buffer = Buffer.alloc(0);
  readonly #pending = new Map<string, Array<(packet: Packet) => void>>();
  readonly #evaluations = new Map<string, Packet>();
  readonly #evaluationWaiters = new Map<string, (packet: Packet) => void>();

  private constructor(socket: Socket) {
    this.#socket = socket;
    socket.on('data', (chunk) => this.#receive(chunk));
  }

  static async connect(port: number): Promise<FirefoxDebugger> {
    const socket = connect(port, '127.0.0.1');
    const client = new FirefoxDebugger(socket);
    // The root actor greets first (its applicationType), unasked.
    await new Promise<Packet>((resolve, reject) => {
      client.#pending.set('root', [resolve]);
      socket.once('error', reject);
    });
    return client;
  }

  request<T = Packet>(to: string, type: string, fields: Record<string, unknown> = {}): Promise<T> {
    return new Promise((resolve, reject) => {
      const waiting = this.#pending.get(to) ?? [];
      waiting.push((packet) =>
        packet['error']
          ? reject(new Error(`${to} ${type}: ${String(packet['error'])} ${String(packet['message'])}`))
          : resolve(packet as T),
      );
      this.#pending.set(to, waiting);
      const text = JSON.stringify({ to, type, ...fields });
      this.#socket.write(`${Buffer.byteLength(text)}:${text}`);
    });
  }

  async addons(): Promise<AddonForm[]> {
    return (await this.request<{ addons: AddonForm[] }>('root', 'listAddons')).addons;
  }

  async tabs(): Promise<TabForm[]> {
    return (await this.request<{ tabs: TabForm[] }>('root', 'listTabs')).tabs;
  }

  /** The target and console actors of a tab's current document, and its address. */
  async consoleOf(tab: TabForm): Promise<{ target: string; console: string; url: string }> {
    const { frame } = await this.request<{ frame: { actor: string; consoleActor: string; url: string } }>(tab.actor, 'getTarget');
    return { target: frame.actor, console: frame.consoleActor, url: frame.url };
  }

  /**
   * Evaluates an expression as the console does (a promise is awaited) and returns its value,
   * which must be a short string: make the expression return JSON.
   */
  async evaluate(consoleActor: string, text: string): Promise<string> {
    const { resultID } = await this.request<{ resultID: string }>(consoleActor, 'evaluateJSAsync', {
      text,
      mapped: { await: true },
    });
    const packet =
      this.#evaluations.get(resultID) ?? (await new Promise<Packet>((resolve) => this.#evaluationWaiters.set(resultID, resolve)));
    if (packet['hasException']) throw new Error(`Evaluation failed: ${String(packet['exceptionMessage'])}`);
    const result = packet['result'];
    if (typeof result !== 'string') throw new Error(`Evaluation returned ${JSON.stringify(result)}, not a short string`);
    return result;
  }

  close(): void {
    this.#socket.destroy();
  }

  #receive(chunk: Buffer): void {
    this.#buffer = Buffer.concat([this.#buffer, chunk]);
    for (;;) {
      const colon = this.#buffer.indexOf(':');
      if (colon < 0) return;
      const length = Number(this.#buffer.subarray(0, colon).toString());
      if (this.#buffer.length < colon + 1 + length) return;
      const packet = JSON.parse(this.#buffer.subarray(colon + 1, colon + 1 + length).toString()) as Packet;
      this.#buffer = this.#buffer.subarray(colon + 1 + length);
      this.#dispatch(packet);
    }
  }

  #dispatch(packet: Packet): void {
    if (packet['type'] === 'evaluationResult') {
      const id = String(packet['resultID']);
      const waiter = this.#evaluationWaiters.get(id);
      if (waiter) waiter(packet);
      else this.#evaluations.set(id, packet);
      return;
    }
    // Other events (navigation, frame and tab list updates) are not needed here.
    if (packet['type'] !== undefined) return;
    this.#pending.get(packet.from)?.shift()?.(packet);
  }
}
