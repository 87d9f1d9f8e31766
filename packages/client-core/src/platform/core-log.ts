/**
 * Where the core tells what happened without a caller asking: a refused write redone, a purge
 * after the Trash term. The platform decides where it goes (a page's console, the command
 * line's log file). Never given request bodies, keys, passwords or entry contents: only a
 * context and an error (whose message is the server's or a generic sentence).
 */
export interface CoreLog {
  info(context: string, detail: string): void;
  failure(context: string, error: unknown): void;
}

/** Says nothing: for a platform that keeps no log. */
export const SILENT_LOG: CoreLog = { info: () => undefined, failure: () => undefined };
