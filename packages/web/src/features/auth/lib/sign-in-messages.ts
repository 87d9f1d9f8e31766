/** Sign-in toasts stay 2 s (spec); Lockit's own security refusals stay longer to be read. */
export const SIGN_IN_TOAST_MS = 2000;
export const SECURITY_TOAST_MS = 8000;
export const NO_RESPONSE_MESSAGE = 'Something went wrong. Please try again later.';
/** Like the no-response message, for a browser that says it has no network at all. */
export const OFFLINE_MESSAGE = 'You are offline. Please sign in again when your network is back.';
