/** When a copy was served, as the person's browser writes dates and times. */
export const servedAtText = (savedAt: number) =>
  new Date(savedAt).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * Above a vault opened from this device's offline copy: that it is offline, since when the copy
 * dates, and that changes wait on this device (sealed) until the server answers.
 */
export function OfflineNotice({ savedAt }: { savedAt: number }) {
  return (
    <div role="status" className="mt-4 rounded-lg border border-amber-500/60 bg-amber-950/50 p-4 text-sm text-amber-100">
      <p className="font-semibold text-white">Offline: Lockit cannot reach your server.</p>
      <p>
        You are viewing the copy of your vault saved on this device, as your server last served it on {servedAtText(savedAt)}.
        Changes you make are kept encrypted on this device, marked as waiting, and sent when your server answers again.
      </p>
    </div>
  );
}
