/**
 * quantileFunction (src/core/stats/quantile.ts) caches t quantiles by integer ν: the cache must
 * never change a value, on any ν, first asked or again, at block edges or past the cached range.
 */
import { describe, expect, it } from "vitest";

import { normalQuantile } from "../../src/core/stats/normal-quantile.js";
import { quantileFunction } from "../../src/core/stats/quantile.js";
import { studentTQuantile } from "../../src/core/stats/student-t-quantile.js";
import { prng } from "../helpers/prng.js";

describe("quantileFunction", () => {
  it("t: every ν gives studentTQuantile's value, asked once or again, in any order", () => {
    const rnd = prng(7);
    const q = quantileFunction({ quantile: "t", confidence: 0.95 });
    const nus = [
      1,
      2,
      3,
      29,
      30,
      4095,
      4096,
      4097,
      8191,
      8192,
      55_000,
      2 ** 22 - 1,
      2 ** 22,
      2 ** 22 + 1,
      3e7,
      ...Array.from({ length: 300 }, () => 1 + Math.floor(rnd() * 600_000)),
      ...Array.from({ length: 50 }, () => 0.5 + rnd() * 100),
    ];
    for (let pass = 0; pass < 2; pass++) {
      for (const nu of pass === 0 ? nus : [...nus].reverse()) {
        expect(q(nu), `ν = ${nu}`).toBe(studentTQuantile(0.95, nu));
      }
    }
  });

  it("t: a run of consecutive ν (the exact bound's visits) across blocks", () => {
    const q = quantileFunction({ quantile: "t", confidence: 0.9 });
    for (let nu = 4000; nu < 12_500; nu++) expect(q(nu)).toBe(studentTQuantile(0.9, nu));
    for (let nu = 12_499; nu >= 4000; nu -= 97) expect(q(nu)).toBe(studentTQuantile(0.9, nu));
  });

  it("t: two policies keep their own values; z ignores ν", () => {
    const a = quantileFunction({ quantile: "t", confidence: 0.95 });
    const b = quantileFunction({ quantile: "t", confidence: 0.99 });
    expect(a(10)).toBe(studentTQuantile(0.95, 10));
    expect(b(10)).toBe(studentTQuantile(0.99, 10));
    expect(a(10)).not.toBe(b(10));
    const z = quantileFunction({ quantile: "z", confidence: 0.95 });
    expect(z(3)).toBe(normalQuantile(0.95));
    expect(z(1e6)).toBe(normalQuantile(0.95));
  });
});
