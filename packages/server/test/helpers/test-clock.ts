/** Real time plus an offset the test moves forward: passed to the app as `now`. */
export function createTestClock() {
  let offset = 0;
  return {
    now: () => Date.now() + offset,
    advance(ms: number) {
      offset += ms;
    },
  };
}

export type TestClock = ReturnType<typeof createTestClock>;
