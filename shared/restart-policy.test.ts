import { initialRestartState, onExit, type RestartPolicy } from './restart-policy';

const policy: RestartPolicy = { initialDelayMs: 500, maxDelayMs: 3000, stableAfterMs: 30_000, maxQuickCrashes: 5 };

describe('restart policy of split mode', () => {
  it('doubles the delay for each quick crash in a row, up to the ceiling, then gives up', () => {
    let state = initialRestartState();
    const delays: number[] = [];
    for (let i = 0; i < 4; i++) {
      const decision = onExit(state, 1000, policy);
      if (decision.action !== 'restart') throw new Error('expected a restart');
      delays.push(decision.delayMs);
      state = decision.state;
    }
    expect(delays).toEqual([500, 1000, 2000, 3000]);
    expect(state.restarts).toBe(4);
    const last = onExit(state, 1000, policy);
    expect(last.action).toBe('give-up');
    expect(last.state.quickCrashes).toBe(5);
  });

  it('starts counting again after a stable run, keeping the count of restarts', () => {
    let state = initialRestartState();
    for (let i = 0; i < 4; i++) state = onExit(state, 10, policy).state;
    const afterStable = onExit(state, 60_000, policy);
    expect(afterStable).toEqual({ action: 'restart', delayMs: 500, state: { quickCrashes: 0, restarts: 5 } });
  });

  it('restarts a process that died after a long run with the first delay, whatever killed it', () => {
    expect(onExit(initialRestartState(), 31_000, policy)).toEqual({
      action: 'restart',
      delayMs: 500,
      state: { quickCrashes: 0, restarts: 1 },
    });
  });
});
