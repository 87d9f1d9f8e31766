import { ApiClient, DeviceMemory, type KeyValueStore, type Transport } from '@lockit/client-core';
import { routeTable } from '@lockit/contract/routes';
import { deriveKeysFromPassword, type DeviceProfile } from '@lockit/crypto';

/**
 * The extension's fetch: cookies of the server's origin go with every call (the session is the
 * extension's own sign-in, a device in the account's sessions list). Only the server the
 * person connected to is reachable: the manifest asks for no host, and the popup requests
 * permission for that one origin.
 */
export const extensionTransport: Transport = async (request) =>
  fetch(request.url, {
    method: request.method,
    headers: request.headers,
    credentials: 'include',
    cache: 'no-store',
    ...(request.body !== undefined ? { body: request.body } : {}),
  });

/** `chrome.storage.local` as the client core's durable store: anti-rollback numbers only, never a key. */
export class ExtensionStore implements KeyValueStore {
  constructor(private readonly area: chrome.storage.StorageArea = chrome.storage.local) {}

  async get(key: string): Promise<string | null> {
    const value = (await this.area.get(key))[key];
    return typeof value === 'string' ? value : null;
  }

  async set(key: string, value: string): Promise<void> {
    try {
      await this.area.set({ [key]: value });
    } catch {
      // A store that cannot write remembers less (KeyValueStore's contract): never throws.
    }
  }

  async remove(key: string): Promise<void> {
    await this.area.remove(key);
  }
}

/** The API client of the connected server. The route table is imported: no import() in an MV3 service worker. */
export function apiClientFor(server: string): ApiClient {
  return new ApiClient({ baseUrl: server, transport: extensionTransport, routes: () => routeTable });
}

export const deviceMemory = new DeviceMemory(new ExtensionStore());

export const derive = deriveKeysFromPassword;

/** What this browser tells of its device, for the KDF ceiling. */
export function currentDevice(): DeviceProfile {
  const hints = navigator as Navigator & { deviceMemory?: number; userAgentData?: { mobile?: boolean } };
  return { memoryGiB: hints.deviceMemory, mobile: hints.userAgentData?.mobile ?? false };
}
