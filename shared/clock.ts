/**
 * The platform's notion of "now". Everything that compares against a deadline (token expiry, key grace periods,
 * reset links, TOTP windows) asks here, so tests can move time forward instead of sleeping.
 */
let offsetMs = 0;

export const clock = {
  now: (): Date => new Date(Date.now() + offsetMs),
  nowMs: (): number => Date.now() + offsetMs,
  /** Tests only: move this process's time forward (or back). */
  advance(ms: number): void {
    offsetMs += ms;
  },
  reset(): void {
    offsetMs = 0;
  },
};
