import { describe, expect, test } from "vitest";

import { prng } from "../helpers/prng.js";
import { holmStepDown } from "../../src/core/decision/benchmark-holm.js";

/** Holm (1979) as defined: p-values ascending; reject while p₍ᵢ₎ ≤ α/(B − i + 1), stop at the first that is not. */
function sequentialHolm(p: readonly number[], alpha: number): boolean[] {
  const order = p.map((_, b) => b).sort((x, y) => (p[x] as number) - (p[y] as number));
  const out = p.map(() => false);
  for (let i = 0; i < order.length; i++) {
    const b = order[i] as number;
    if ((p[b] as number) <= alpha / (p.length - i)) out[b] = true;
    else break;
  }
  return out;
}

describe("Holm's step-down across benchmarks", () => {
  test("equals the sequential definition on 20,000 random families (ties and boundary values included)", () => {
    const rnd = prng(40);
    const alpha = 0.05;
    for (let n = 0; n < 20000; n++) {
      const count = 1 + Math.floor(rnd() * 6);
      // Some p-values exactly at a Holm boundary, some tied, the rest spread over [0, 0.1].
      const p = Array.from({ length: count }, () => {
        const u = rnd();
        if (u < 0.2) return alpha / (1 + Math.floor(rnd() * count));
        return Math.round(rnd() * 100) / 1000;
      });
      const batch = holmStepDown(count, alpha, (b, level) => (p[b] as number) <= level);
      expect(batch.holds, JSON.stringify(p)).toStrictEqual(sequentialHolm(p, alpha));
    }
  });

  test("levels: the first round tests every claim at α/B, a made claim keeps the level it was made at", () => {
    // p = 0.015 ≤ 0.05/3; then 0.024 ≤ 0.05/2 = 0.025; then 0.06 > 0.05: stops.
    const p = [0.06, 0.015, 0.024];
    const r = holmStepDown(3, 0.05, (b, level) => (p[b] as number) <= level);
    expect(r.holds).toStrictEqual([false, true, true]);
    expect(r.level).toStrictEqual([0.05, 0.05 / 3, 0.05 / 2]);
  });

  test("one benchmark is today's rule at level α; no claim stops after the first round", () => {
    expect(holmStepDown(1, 0.05, (_, level) => level >= 0.05)).toStrictEqual({
      holds: [true],
      level: [0.05],
    });
    expect(holmStepDown(2, 0.05, () => false)).toStrictEqual({
      holds: [false, false],
      level: [0.025, 0.025],
    });
  });
});
