/**
 * The ways a call to the API can fail: the client core's, the same for every client. Screens
 * turn them into the texts of the spec's error catalogue.
 */
export { ApiError, NetworkError, NoSessionError, serverMessageOf, UnexpectedResponseError } from '@lockit/client-core';
