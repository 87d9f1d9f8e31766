/** Zero knowledge: a forgotten master password cannot be recovered, and sign-up says so plainly. */
export function MasterPasswordNotice() {
  return (
    <p className="rounded-lg border border-slate-700 bg-slate-800/60 p-3 text-sm text-slate-300">
      <strong className="text-white">Remember your password.</strong> It is your master password: your data is encrypted with it,
      and Lockit cannot recover it if you forget it. Nobody can, not even the server.
    </p>
  );
}
