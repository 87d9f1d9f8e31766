import type { BrowserContext } from 'playwright-core';

/**
 * Stops one extension's service worker through the DevTools protocol: the version id comes
 * from `ServiceWorker.workerVersionUpdated` (sent for every known version on enable), and
 * `ServiceWorker.stopWorker` stops that version alone (stopAllWorkers also ended Playwright's
 * hold on the context). Resolves once the protocol reports it stopped.
 */
export async function stopExtensionWorker(context: BrowserContext, extensionId: string): Promise<void> {
  const page = context.pages()[0] ?? (await context.newPage());
  const cdp = await context.newCDPSession(page);
  type Version = { versionId: string; scriptURL: string; runningStatus: string };
  const prefix = `chrome-extension://${extensionId}/`;
  try {
    let onUpdate: (event: { versions: Version[] }) => void = () => undefined;
    const running = new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`No running worker of ${extensionId}`)), 10_000);
      onUpdate = ({ versions }) => {
        const version = versions.find((v) => v.scriptURL.startsWith(prefix) && v.runningStatus === 'running');
        if (version) {
          clearTimeout(timer);
          resolve(version.versionId);
        }
      };
      cdp.on('ServiceWorker.workerVersionUpdated', onUpdate);
    });
    await cdp.send('ServiceWorker.enable');
    const versionId = await running;
    cdp.off('ServiceWorker.workerVersionUpdated', onUpdate);
    const stopped = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`The worker of ${extensionId} did not stop`)), 10_000);
      cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }: { versions: Version[] }) => {
        if (versions.some((v) => v.versionId === versionId && v.runningStatus === 'stopped')) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    await cdp.send('ServiceWorker.stopWorker', { versionId });
    await stopped;
  } finally {
    await cdp.detach();
  }
}
