import { Worker } from 'node:worker_threads';

/**
 * Mixed-integer programs solved by HiGHS (the `highs` package: the HiGHS solver of the University of Edinburgh,
 * compiled to WebAssembly). HiGHS's `run()` is synchronous and takes seconds on a ward's roster, so each solve
 * runs in its own worker thread: the process's event loop (HTTP, the bus) never waits for it, and the thread's
 * WebAssembly memory is released when it ends. One solve at a time per process: they are CPU-bound.
 *
 * Objectives are solved lexicographically, in stages: each stage optimises its own objective, then keeps it within
 * `keepWithin` of what it reached (a row added to the model) while the next stages optimise theirs. Every stage
 * starts from the previous stage's solution.
 */

export interface SolverModel {
  numCols: number;
  numRows: number;
  colCost: number[];
  colLower: number[];
  colUpper: number[];
  rowLower: number[];
  rowUpper: number[];
  /** The constraint matrix by rows (CSR). */
  starts: number[];
  indices: number[];
  values: number[];
  /** 1 integer, 0 continuous, per column. */
  integrality: number[];
}

export interface SolverStage {
  name: string;
  /** Objective coefficient of every column. */
  costs: number[];
  maximize: boolean;
  /** How far later stages may move this objective from what it reached; null: they may not be held to it. */
  keepWithin: number | null;
  /** Relative MIP gap at which the stage stops (HiGHS's default 1e-4 otherwise). */
  relativeGap?: number;
  /** Absolute MIP gap at which the stage stops (HiGHS's default 1e-6 otherwise). */
  absoluteGap?: number;
}

export interface StageResult {
  name: string;
  /** HiGHS's model status: `optimal`, or `time_limit` with the best solution found by then. */
  status: string;
  value: number;
  seconds: number;
}

export interface SolveResult {
  colValue: number[];
  stages: StageResult[];
  seconds: number;
}

export interface SolveOptions {
  /** Seconds for each stage; a stage that runs out keeps the best solution found. */
  stageTimeLimitSeconds?: number;
  /** A feasible solution to start from (every column), such as one a heuristic built. */
  start?: number[];
  /** Told as each stage starts: its index, how many there are and its name. */
  onProgress?(progress: { stage: number; stages: number; name: string }): void;
}

/** The code of the solving thread, in plain JavaScript so it runs the same from the sources and from dist/. */
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const loadHighs = require(workerData.highsPath);
const STATUS = { 7: 'optimal', 8: 'infeasible', 13: 'time_limit', 14: 'iteration_limit', 16: 'solution_limit', 17: 'interrupted' };
(async () => {
  const highs = await loadHighs();
  const C = highs.constants;
  const { model: p, stages, stageTimeLimitSeconds, start } = workerData;
  if (p.numCols === 0) return parentPort.postMessage({ type: 'done', colValue: [], stages: [], seconds: 0 });
  const model = highs.createModel({
    numCols: p.numCols, numRows: p.numRows, colCost: p.colCost, colLower: p.colLower, colUpper: p.colUpper,
    rowLower: p.rowLower, rowUpper: p.rowUpper, integrality: p.integrality,
    matrix: { format: 'csr', numRows: p.numRows, numCols: p.numCols, starts: p.starts, indices: p.indices, values: p.values },
  });
  const started = Date.now();
  try {
    model.options.set({ output_flag: false, time_limit: stageTimeLimitSeconds, random_seed: 1 });
    let solution = start || null;
    const results = [];
    for (let k = 0; k < stages.length; k++) {
      const stage = stages[k];
      parentPort.postMessage({ type: 'progress', stage: k });
      model.changeColsCost({ kind: 'range', from: 0, to: p.numCols - 1 }, stage.costs);
      model.changeObjectiveSense(stage.maximize ? C.objectiveSense.maximize : C.objectiveSense.minimize);
      model.options.set({ mip_rel_gap: stage.relativeGap ?? 1e-4, mip_abs_gap: stage.absoluteGap ?? 1e-6 });
      model.zeroAllClocks();
      if (solution) model.setSolution({ colValue: solution });
      const t0 = Date.now();
      model.run();
      const code = model.getModelStatus();
      const found = model.info.get('primal_solution_status') === 2;
      if (!found) {
        if (solution) { results.push({ name: stage.name, status: STATUS[code] || String(code), value: NaN, seconds: (Date.now() - t0) / 1000 }); break; }
        throw new Error('HiGHS found no solution in stage "' + stage.name + '" (status ' + (STATUS[code] || code) + ')');
      }
      solution = Array.from(model.getSolution().colValue);
      let value = 0;
      for (let j = 0; j < p.numCols; j++) value += stage.costs[j] * solution[j];
      results.push({ name: stage.name, status: STATUS[code] || String(code), value, seconds: (Date.now() - t0) / 1000 });
      if (stage.keepWithin !== null && k < stages.length - 1) {
        const idx = [], val = [];
        for (let j = 0; j < p.numCols; j++) if (stage.costs[j] !== 0) { idx.push(j); val.push(stage.costs[j]); }
        if (stage.maximize) model.addRow(value - stage.keepWithin, highs.infinity, { indices: idx, values: val });
        else model.addRow(-highs.infinity, value + stage.keepWithin, { indices: idx, values: val });
      }
    }
    parentPort.postMessage({ type: 'done', colValue: solution, stages: results, seconds: (Date.now() - started) / 1000 });
  } finally {
    model.dispose();
  }
})().catch((err) => parentPort.postMessage({ type: 'error', message: String((err && err.message) || err) }));
`;

/** What HiGHS calls infinity (its `kHighsInf`); bounds at or beyond it are absent. */
export const SOLVER_INFINITY = Infinity;

let running: Promise<unknown> = Promise.resolve();

/** Solves `model` through `stages`, one solve at a time per process, in a worker thread. */
export function solveLexicographic(model: SolverModel, stages: SolverStage[], options: SolveOptions = {}): Promise<SolveResult> {
  const next = running.then(() => runThread(model, stages, options));
  running = next.catch(() => undefined);
  return next;
}

function runThread(model: SolverModel, stages: SolverStage[], options: SolveOptions): Promise<SolveResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(THREAD, {
      eval: true,
      workerData: {
        highsPath: require.resolve('highs'),
        model,
        stages,
        stageTimeLimitSeconds: options.stageTimeLimitSeconds ?? 20,
        start: options.start ?? null,
      },
    });
    let settled = false;
    // Settled once the thread has stopped, so nothing of it outlives the solve.
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      void worker.terminate().finally(fn);
    };
    worker.on('message', (msg: { type: string; stage?: number; message?: string } & Partial<SolveResult>) => {
      if (msg.type === 'progress') options.onProgress?.({ stage: msg.stage!, stages: stages.length, name: stages[msg.stage!].name });
      else if (msg.type === 'done') finish(() => resolve({ colValue: msg.colValue!, stages: msg.stages!, seconds: msg.seconds! }));
      else if (msg.type === 'error') finish(() => reject(new Error(`solver: ${msg.message}`)));
    });
    worker.on('error', (err) => finish(() => reject(err)));
    worker.on('exit', (code) => finish(() => reject(new Error(`solver thread exited with code ${code} before answering`))));
  });
}
