/**
 * An answer a person can read: routes throw it and the error handler sends
 * `{ message, ...fields, data? }` with the status (`fields`: a machine-readable `code` and the
 * like, beside the message). Anything else thrown becomes a 500 with no details.
 */
export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly statusCode: number,
    message: string,
    readonly options: { data?: unknown; fields?: Record<string, unknown>; headers?: Record<string, string> } = {},
  ) {
    super(message);
  }
}

export const SIGN_IN_REQUIRED = 'Please sign in.';
export const SERVER_FAULT = 'Something went wrong on our side.';
