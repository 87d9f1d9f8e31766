/**
 * Dedicated worker that runs Argon2id (64 MiB by default) off the page's main thread, so
 * typing, spinners and toasts keep working while keys are derived. It answers one request
 * with the master key bytes (transferred, not copied) and the page then terminates it.
 */
import { runKdfRequest, type KdfRequest } from './kdf-protocol';

interface WorkerScope {
  onmessage: ((event: MessageEvent<KdfRequest>) => void) | null;
  postMessage(message: unknown, transfer: Transferable[]): void;
}

const scope = self as unknown as WorkerScope;

scope.onmessage = (event) => {
  void runKdfRequest(event.data).then((response) => {
    scope.postMessage(response, response.ok ? [response.masterKey.buffer as ArrayBuffer] : []);
  });
};
