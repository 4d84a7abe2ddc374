import { describe, expect, it } from "vitest";
import { compareCodeUnits } from "../../../src/core/model.js";
import { idOrder } from "../../../src/read/builder/id-order.js";
import { prng } from "../../helpers/prng.js";

/** The order idOrder must give: a plain sort with compareCodeUnits. */
function reference(tasks: readonly number[], ids: readonly string[]): number[] {
  return [...tasks].sort((a, b) => compareCodeUnits(ids[a] ?? "", ids[b] ?? ""));
}

function ordered(tasks: readonly number[], ids: readonly string[]): number[] {
  const out = Uint32Array.from(tasks);
  idOrder(out, ids);
  return [...out];
}

/** Code units that test every bucket and every way two ids can differ: ASCII (with the
 * bucket edges), Latin-1, BMP, surrogate halves of a pair and alone, U+FFFF. */
const UNITS = [
  "a",
  "b",
  "_",
  "-",
  "0",
  "9",
  "Z",
  "~",
  " ",
  "\u007f",
  "é",
  "\u0080",
  "中",
  "\ud83d",
  "\ude00",
  "\uffff",
];

function distinctIds(
  random: () => number,
  count: number,
  maxLength: number,
  units: readonly string[],
): string[] {
  const seen = new Set<string>();
  // (Bounded tries: a few lengths may not hold `count` distinct ids.)
  for (let tries = 0; seen.size < count && tries < 100 * count; tries++) {
    const length = 1 + Math.floor(random() * maxLength);
    let s = "";
    for (let k = 0; k < length; k++) s += units[Math.floor(random() * units.length)] ?? "";
    seen.add(s);
  }
  return [...seen];
}

function shuffled<T>(random: () => number, items: readonly T[]): T[] {
  const out = [...items];
  for (let k = out.length - 1; k > 0; k--) {
    const j = Math.floor(random() * (k + 1));
    [out[k], out[j]] = [out[j] as T, out[k] as T];
  }
  return out;
}

describe("idOrder: code-unit order of distinct task ids", () => {
  it("orders the ids of a worked example", () => {
    const ids = ["sympy__sympy-2", "django-1", "sympy__sympy-10", "Django-9", "é-1", "django-1a", "😀", "中"];
    const tasks = [0, 1, 2, 3, 4, 5, 6, 7];
    expect(ordered(tasks, ids).map((i) => ids[i])).toEqual([
      "Django-9",
      "django-1",
      "django-1a",
      "sympy__sympy-10",
      "sympy__sympy-2",
      "é-1",
      "中",
      "😀",
    ]);
  });

  it("gives exactly the reference order on random ids of every kind of code unit", () => {
    const random = prng(20261206);
    for (let round = 0; round < 200; round++) {
      const ids = distinctIds(random, 1 + Math.floor(random() * 60), 2 + Math.floor(random() * 5), UNITS);
      const tasks = shuffled(
        random,
        ids.map((_, i) => i),
      );
      expect(ordered(tasks, ids)).toEqual(reference(tasks, ids));
    }
  });

  it("gives exactly the reference order where ids are prefixes of others and share long prefixes", () => {
    const random = prng(7);
    for (let round = 0; round < 100; round++) {
      const base = distinctIds(random, 5, 4, ["a", "b", "é"]).map((s) => `repo__repo-${s}`);
      const ids = [...new Set(base.flatMap((s) => [s, `${s}0`, `${s}\u0000`, s.slice(0, 3), `${s}\uffff`]))];
      const tasks = shuffled(
        random,
        ids.map((_, i) => i),
      );
      expect(ordered(tasks, ids)).toEqual(reference(tasks, ids));
    }
  });

  it("sorts a subset of the task numbers, in any order, leaving the others' ids aside", () => {
    const random = prng(99);
    const ids = distinctIds(random, 500, 8, UNITS);
    const tasks = shuffled(
      random,
      ids.map((_, i) => i),
    ).slice(0, 200);
    expect(ordered(tasks, ids)).toEqual(reference(tasks, ids));
  });

  it("keeps the empty id first and handles no task or one task", () => {
    expect(ordered([], [])).toEqual([]);
    expect(ordered([0], ["x"])).toEqual([0]);
    const ids = ["b", "", "\u0080", "a"];
    expect(ordered([0, 1, 2, 3], ids)).toEqual([1, 3, 0, 2]);
  });
});
