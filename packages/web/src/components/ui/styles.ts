/** Shared class lists, so buttons and button-like links look the same everywhere. */
/**
 * White text on the brand gradient must meet WCAG AA (4.5:1 for normal-size text) at every
 * point of the gradient and in every state. The old stops (cyan-500 #00b8db, fuchsia-500
 * #e12afb) gave 2.4:1 and 3.5:1. With cyan-700 (#007595) and fuchsia-700 (#a800b7) the worst
 * point is the cyan stop: 5.28:1 (fuchsia-700 6.27:1; the oklab blend between them stays
 * above 5.28:1). Hover darkens (brightness 90 %: 6.2:1 at the cyan stop) rather than
 * lightens: brightness 110 % would bring the cyan stop down to 4.5:1, no margin at all.
 * Disabled buttons (60 % opacity) are exempt from the contrast rule.
 */
export const buttonPrimary =
  'inline-flex items-center justify-center rounded-lg bg-gradient-to-r from-cyan-700 to-fuchsia-700 px-5 py-2.5 font-semibold text-white shadow transition hover:brightness-90 disabled:cursor-not-allowed disabled:opacity-60';
export const buttonSecondary =
  'inline-flex items-center justify-center rounded-lg border border-slate-600 px-5 py-2.5 font-semibold text-slate-100 transition hover:bg-slate-800 disabled:cursor-not-allowed disabled:opacity-60';
export const buttonDanger =
  'inline-flex items-center justify-center rounded-lg bg-red-600 px-5 py-2.5 font-semibold text-white transition hover:bg-red-500 disabled:cursor-not-allowed disabled:opacity-60';
export const card = 'rounded-2xl border border-slate-800 bg-slate-900/80 p-6 shadow-xl';
