import { useId, useRef, useState } from 'react';
import type { DeviceSession } from '@lockit/contract';
import { Dialog } from '@/components/ui/dialog';
import { buttonDanger, buttonSecondary, card } from '@/components/ui/styles';
import { serverMessageOf } from '@/lib/api-errors';
import { useEndOtherSessions, useEndSession, useSessions } from '../api/sessions';
import { deviceName } from '../lib/device-name';
import { relativeTime } from '../lib/relative-time';

type Confirming = { kind: 'one'; session: DeviceSession } | { kind: 'others'; count: number };

/**
 * "Sessions and devices": every signed-in session of the account, this browser's
 * marked, with End for each other one and "Sign out all other sessions". Ending takes effect
 * on that device's very next request: the server deletes the session.
 */
export function SessionsSection() {
  const sessions = useSessions();
  const endOne = useEndSession();
  const endOthers = useEndOtherSessions();
  const [confirming, setConfirming] = useState<Confirming | null>(null);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const busy = endOne.isPending || endOthers.isPending;
  const others = sessions.data?.filter((session) => !session.current) ?? [];

  const failed = (error: unknown) =>
    setOutcome({ ok: false, text: serverMessageOf(error) ?? 'The session could not be ended. Try again.' });

  const onConfirm = () => {
    if (!confirming || busy) return;
    setOutcome(null);
    if (confirming.kind === 'one') {
      endOne.mutate(confirming.session.id, {
        onSuccess: () => setOutcome({ ok: true, text: `Session ended: ${deviceName(confirming.session)} is signed out.` }),
        onError: failed,
        onSettled: () => setConfirming(null),
      });
    } else {
      endOthers.mutate(undefined, {
        onSuccess: (ended) =>
          setOutcome({ ok: true, text: `Signed out ${ended} other ${ended === 1 ? 'session' : 'sessions'}.` }),
        onError: failed,
        onSettled: () => setConfirming(null),
      });
    }
  };

  return (
    <section aria-labelledby="sessions-title" className={card}>
      <h2 id="sessions-title" className="mb-2 text-xl font-semibold text-white">
        Sessions and devices
      </h2>
      <p className="mb-4 text-sm text-slate-400">
        Where your account is signed in. Ending a session signs that device out at its next request.
      </p>
      {sessions.isPending && <p className="text-sm text-slate-400">Loading sessions...</p>}
      {sessions.isError && <p className="text-sm text-rose-300">Your sessions could not be loaded. Reload to try again.</p>}
      {sessions.isSuccess && (
        <ul aria-label="Sessions" className="flex flex-col divide-y divide-slate-800">
          {sessions.data.map((session) => (
            <SessionRow
              key={session.id}
              session={session}
              disabled={busy}
              onEnd={() => {
                setOutcome(null);
                setConfirming({ kind: 'one', session });
              }}
            />
          ))}
        </ul>
      )}
      {others.length > 0 && (
        <button
          type="button"
          className={`${buttonSecondary} mt-4 w-full sm:w-auto`}
          disabled={busy}
          onClick={() => {
            setOutcome(null);
            setConfirming({ kind: 'others', count: others.length });
          }}
        >
          Sign out all other sessions
        </button>
      )}
      {outcome && (
        <p role={outcome.ok ? 'status' : 'alert'} className={`mt-3 text-sm ${outcome.ok ? 'text-emerald-300' : 'text-rose-300'}`}>
          {outcome.text}
        </p>
      )}
      {confirming && (
        <Dialog
          title={confirming.kind === 'one' ? 'End this session?' : 'Sign out all other sessions?'}
          onClose={() => setConfirming(null)}
          initialFocusRef={cancelRef}
        >
          <p className="mb-6 text-slate-300">
            {confirming.kind === 'one'
              ? `${deviceName(confirming.session)}${confirming.session.address ? ` at ${confirming.session.address}` : ''} will be signed out at its next request.`
              : `Every other device signed in to your account (${confirming.count}) will be signed out at its next request. This browser stays signed in.`}
          </p>
          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <button ref={cancelRef} type="button" className={buttonSecondary} onClick={() => setConfirming(null)}>
              Cancel
            </button>
            <button type="button" className={buttonDanger} onClick={onConfirm} disabled={busy}>
              {confirming.kind === 'one' ? 'End session' : 'Sign out others'}
            </button>
          </div>
        </Dialog>
      )}
    </section>
  );
}

function SessionRow({ session, disabled, onEnd }: { session: DeviceSession; disabled: boolean; onEnd: () => void }) {
  const nameId = useId();
  const started = new Date(session.createdAt);
  const lastUsed = new Date(session.lastUsedAt);
  const movedFrom =
    session.signInAddress && session.address && session.signInAddress !== session.address ? session.signInAddress : null;
  return (
    <li className="flex flex-col gap-3 py-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-2 font-semibold text-white">
          <span id={nameId}>{deviceName(session)}</span>
          {session.current && (
            <span className="rounded-full bg-emerald-900/60 px-2 py-0.5 text-xs font-semibold text-emerald-200">This device</span>
          )}
        </p>
        <p className="text-sm break-all text-slate-300">
          {session.address ?? 'Address unknown'}
          {movedFrom && <span className="text-slate-400"> (signed in from {movedFrom})</span>}
        </p>
        <p className="text-sm text-slate-400">
          Started <time dateTime={session.createdAt}>{started.toLocaleString()}</time>
          {' · '}
          {session.current ? (
            'Active now'
          ) : (
            <>
              Last active{' '}
              <time dateTime={session.lastUsedAt} title={lastUsed.toLocaleString()}>
                {relativeTime(lastUsed, new Date())}
              </time>
            </>
          )}
        </p>
      </div>
      {!session.current && (
        <button
          type="button"
          className="w-full shrink-0 rounded-lg border border-slate-600 px-4 py-2 text-slate-200 hover:bg-slate-800 disabled:opacity-60 sm:w-auto"
          aria-describedby={nameId}
          disabled={disabled}
          onClick={onEnd}
        >
          End
        </button>
      )}
    </li>
  );
}
