// The agent compiles without the DOM library, as the client core does; WebCrypto's CryptoKey (in
// the core's and crypto's signatures) is Node's global of the same name.
declare global {
  type CryptoKey = import('node:crypto').webcrypto.CryptoKey;
}
export {};
