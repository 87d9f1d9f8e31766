/** Shared class lists, so buttons and button-like links look the same everywhere. */
export const buttonPrimary =
  'inline-flex items-center justify-center rounded-lg bg-gradient-to-r from-cyan-500 to-fuchsia-500 px-5 py-2.5 font-semibold text-white shadow transition hover:brightness-110 disabled:cursor-not-allowed disabled:opacity-60';
export const buttonSecondary =
  'inline-flex items-center justify-center rounded-lg border border-slate-600 px-5 py-2.5 font-semibold text-slate-100 transition hover:bg-slate-800 disabled:cursor-not-allowed disabled:opacity-60';
export const buttonDanger =
  'inline-flex items-center justify-center rounded-lg bg-red-600 px-5 py-2.5 font-semibold text-white transition hover:bg-red-500 disabled:cursor-not-allowed disabled:opacity-60';
export const card = 'rounded-2xl border border-slate-800 bg-slate-900/80 p-6 shadow-xl';
