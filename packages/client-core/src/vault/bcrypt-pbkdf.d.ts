// The npm package bcrypt-pbkdf (CommonJS, no types of its own): only what the key opener uses.
declare module 'bcrypt-pbkdf' {
  const bcryptPbkdf: {
    /** Fills `key` (keylen bytes) with OpenBSD's bcrypt_pbkdf of the password and salt; returns 0, or -1 on bad arguments. */
    pbkdf(
      pass: Uint8Array,
      passlen: number,
      salt: Uint8Array,
      saltlen: number,
      key: Uint8Array,
      keylen: number,
      rounds: number,
    ): number;
  };
  export default bcryptPbkdf;
}
