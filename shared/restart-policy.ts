/**
 * When a supervised process dies, whether and when to start it again (split mode's supervisor, bin/split.ts).
 * Pure: the supervisor feeds it exits and follows its answers.
 *
 * A process that ran at least `stableAfterMs` before dying had a good run: it is restarted after `initialDelayMs`
 * and its count of quick crashes starts again. One that died sooner crashed quickly: each quick crash in a row
 * doubles the delay (up to `maxDelayMs`), and after `maxQuickCrashes` in a row the supervisor gives up, since
 * restarting a process that cannot stay up only hides why.
 */
export interface RestartPolicy {
  initialDelayMs: number;
  maxDelayMs: number;
  stableAfterMs: number;
  maxQuickCrashes: number;
}

export const DEFAULT_RESTART_POLICY: RestartPolicy = {
  initialDelayMs: 500,
  maxDelayMs: 15_000,
  stableAfterMs: 30_000,
  maxQuickCrashes: 5,
};

export interface RestartState {
  /** Quick crashes in a row (a stable run resets it). */
  quickCrashes: number;
  /** Restarts so far, over the supervisor's life. */
  restarts: number;
}

export type RestartDecision = { action: 'restart'; delayMs: number; state: RestartState } | { action: 'give-up'; state: RestartState };

export function initialRestartState(): RestartState {
  return { quickCrashes: 0, restarts: 0 };
}

/** What to do about a process that exited after running `ranForMs`. */
export function onExit(state: RestartState, ranForMs: number, policy: RestartPolicy = DEFAULT_RESTART_POLICY): RestartDecision {
  const quickCrashes = ranForMs < policy.stableAfterMs ? state.quickCrashes + 1 : 0;
  if (quickCrashes >= policy.maxQuickCrashes) return { action: 'give-up', state: { ...state, quickCrashes } };
  const delayMs = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** Math.max(0, quickCrashes - 1));
  return { action: 'restart', delayMs, state: { quickCrashes, restarts: state.restarts + 1 } };
}
