/**
 * One catch-up with the server at a time, shared by every caller that asks while it runs,
 * unless the vault changed after it was asked for.
 *
 * Invariant: a caller told of a change (a write from this worker, a notice from the server)
 * gets an answer read after that change. A run asked for before the change may have read the
 * server before the write landed, so such a caller waits for it to end and starts its own.
 */
export class CatchUpRuns<T> {
  #changes = 0;
  #running: { covers: number; done: Promise<T> } | null = null;

  /** A write or a notice: runs asked for before this no longer answer for the vault. */
  changed(): void {
    this.#changes += 1;
  }

  run(task: () => Promise<T>): Promise<T> {
    const wanted = this.#changes;
    const running = this.#running;
    if (running && running.covers >= wanted) return running.done;
    // One at a time: two catch-ups through one cursor would each apply the other's changes.
    const before = running ? running.done.then(noop, noop) : Promise.resolve();
    const done = before.then(task);
    const entry = { covers: wanted, done };
    this.#running = entry;
    done.then(noop, noop).finally(() => {
      if (this.#running === entry) this.#running = null;
    });
    return done;
  }
}

function noop(): void {}
