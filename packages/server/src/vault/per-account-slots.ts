/**
 * At most `perAccount` holders at once for each account; the others wait their turn, in
 * order. Used for sending vault lists: one account with a 16 MB list open in eight tabs, each
 * fetching it in a loop, kept the event loop copying its bytes and took another user's p99
 * from a few milliseconds to half a second; with two at a time it waits, not everyone else.
 */
export function createPerAccountSlots(perAccount: number) {
  const accounts = new Map<string, { active: number; waiting: Array<() => void> }>();

  return {
    /** Resolves with a release function once the account has a free slot. */
    async acquire(accountId: string): Promise<() => void> {
      let account = accounts.get(accountId);
      if (!account) {
        account = { active: 0, waiting: [] };
        accounts.set(accountId, account);
      }
      const state = account;
      if (state.active >= perAccount) await new Promise<void>((resolve) => state.waiting.push(resolve));
      else state.active += 1;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const next = state.waiting.shift();
        if (next)
          next(); // the slot passes straight to the next in line
        else {
          state.active -= 1;
          if (state.active === 0) accounts.delete(accountId);
        }
      };
    },
  };
}

export type PerAccountSlots = ReturnType<typeof createPerAccountSlots>;
