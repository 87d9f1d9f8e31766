// The core compiles without the DOM library, so that no DOM name type-checks in it. WebCrypto's
// CryptoKey (used in @lockit/crypto's signatures) is the one web type it needs: Node's typings
// describe the same global object.
declare global {
  type CryptoKey = import('node:crypto').webcrypto.CryptoKey;
}
export {};
