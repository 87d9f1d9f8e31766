import { card } from '@/components/ui/styles';
import { useSignInAgainOn401 } from '../api/get-admin-session';
import { useDiagnostics } from '../api/get-diagnostics';
import { failureText } from '../lib/format';
import { CopyButton } from './copy-button';

/** The diagnostics text block, to paste into a bug report (it holds no secret). */
export function DiagnosticsPanel() {
  const diagnostics = useDiagnostics();
  useSignInAgainOn401(diagnostics.error);
  return (
    <section aria-labelledby="diagnostics-title" className={card}>
      <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
        <h2 id="diagnostics-title" className="text-xl font-semibold text-white">
          Diagnostics
        </h2>
        {diagnostics.isSuccess && <CopyButton text={diagnostics.data} label="Copy diagnostics" />}
      </div>
      <p className="mb-3 text-sm text-slate-400">Paste this into a bug report: it holds no password, token or e-mail address.</p>
      {diagnostics.isPending && <p className="text-slate-300">Loading...</p>}
      {diagnostics.isError && (
        <p role="alert" className="text-red-400">
          {failureText(diagnostics.error)}
        </p>
      )}
      {diagnostics.isSuccess && (
        <pre
          aria-label="Diagnostics text"
          className="overflow-x-auto rounded-lg border border-slate-700 bg-slate-950 p-4 text-sm whitespace-pre-wrap text-slate-200"
        >
          {diagnostics.data}
        </pre>
      )}
    </section>
  );
}
