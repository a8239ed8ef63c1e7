/**
 * A pool number's health: is its answer rate well below the rest of its pool's? One-sided
 * two-proportion z-test of the number against the others' calls, at alpha 0.01, once both have
 * `minCalls` final calls in the window. Pure.
 */
export const HEALTH = {
  /** Final calls (a number's, and the rest of the pool's) before the test is run. */
  minCalls: 30,
  /** z at or below this (one-sided p <= 0.01): the number answers worse than chance explains. */
  zLimit: -2.326,
  /** An answered call shorter than this is short (a callee who hung up on hearing who it was). */
  shortSec: 10,
  /** Results of campaigns started within this long count. */
  windowMs: 24 * 3_600_000,
  /** How long a number found unhealthy rests: its contacts go to their next match meanwhile. */
  restMs: 24 * 3_600_000,
} as const;

/** One number's final calls in the window: answered (reached), and answered but short. */
export interface NumberTally {
  number: string;
  calls: number;
  answered: number;
  short: number;
}

export interface NumberHealth extends NumberTally {
  answerRate: number;
  shortRate: number;
  /** The rest of the pool's answer rate over its calls. */
  poolAnswerRate: number;
  /** The test's statistic; absent below the minimum sample. */
  z?: number;
  rest: boolean;
}

/** Each number's figures and whether it should rest. */
export function numberHealth(tallies: readonly NumberTally[]): NumberHealth[] {
  const calls = tallies.reduce((n, t) => n + t.calls, 0);
  const answered = tallies.reduce((n, t) => n + t.answered, 0);
  return tallies.map((t) => {
    const n2 = calls - t.calls;
    const a2 = answered - t.answered;
    const figures = {
      ...t,
      answerRate: t.calls > 0 ? t.answered / t.calls : 0,
      shortRate: t.answered > 0 ? t.short / t.answered : 0,
      poolAnswerRate: n2 > 0 ? a2 / n2 : 0,
    };
    if (t.calls < HEALTH.minCalls || n2 < HEALTH.minCalls) return { ...figures, rest: false };
    const p = (t.answered + a2) / (t.calls + n2);
    const se = Math.sqrt(p * (1 - p) * (1 / t.calls + 1 / n2));
    const z = se > 0 ? (figures.answerRate - figures.poolAnswerRate) / se : 0;
    return { ...figures, z, rest: z <= HEALTH.zLimit };
  });
}
