import { useIsPending, usePendingCount } from '@/lib/offline/pending-state';

/** Beside an entry's name (list row, item view) while a change of it waits to be sent. */
export function PendingBadge({ id }: { id: string }) {
  const pending = useIsPending(id);
  if (!pending) return null;
  return (
    <span className="ml-2 inline-block rounded-full border border-amber-500/60 px-2 py-0.5 align-middle text-xs font-medium whitespace-nowrap text-amber-200">
      Waiting to sync
    </span>
  );
}

/** Above the list while changes wait: how many, and that they go when the server answers. */
export function PendingCount() {
  const count = usePendingCount();
  if (count === 0) return null;
  return (
    <p role="status" className="rounded-lg border border-amber-500/60 bg-amber-950/40 px-4 py-2 text-sm text-amber-100">
      {count === 1 ? '1 change is' : `${count} changes are`} waiting to sync. Sealed on this device, they are sent when your
      server answers again.
    </p>
  );
}
