/** A promise the test settles by hand, e.g. to hold a server answer while asserting "Checking...". */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
