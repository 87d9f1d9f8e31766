/**
 * Why a share could not be opened: 'password' (the password is wrong, or the link is not the
 * one the share was made with), 'link' (the fragment is missing or damaged), 'tampered' (the
 * content does not match its key: changed after sharing). The message is for the person.
 */
export type ShareOpenFailure = 'password' | 'link' | 'tampered';

export class ShareOpenError extends Error {
  override readonly name = 'ShareOpenError';
  readonly reason: ShareOpenFailure;
  constructor(reason: ShareOpenFailure, message: string) {
    super(message);
    this.reason = reason;
  }
}
