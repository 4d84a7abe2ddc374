// The rank gate (src/core/rank/rank-gate.ts, docs/rank.md "Gating"): exact verdicts and reasons on
// hand-made rankings, the input checks, the policy's rank section, and the gate in runRank's report.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { InputError } from "../../src/core/errors.js";
import { parsePolicy } from "../../src/core/policy/load-policy.js";
import { checkRankGate, orderedAbove, rankGate } from "../../src/core/rank/rank-gate.js";
import { renderRankGateMarkdown, rankGateTitle } from "../../src/core/rank/render-rank-gate.js";
import type { PairRelation, RankReport } from "../../src/core/rank/rank-types.js";
import { runRank } from "../../src/core/rank/rank.js";
import { policyWith, rankInputs, writeMulti, type MultiTask } from "./rank-helpers.js";

type Decided = Parameters<typeof rankGate>[0];

/** A ranking by hand: models in leaderboard order with their rank_low and group, and the pairs. */
function ranking(
  models: readonly (readonly [string, number, number])[],
  pairs: readonly (readonly [string, string, PairRelation, "validity" | "run_variance" | null])[],
  reference: string | null = null,
): Decided {
  const groups: string[][] = [];
  for (const [model, , group] of models) (groups[group - 1] ??= []).push(model);
  const first = models.filter(([, low]) => low === 1).map(([model]) => model);
  const top = first.length === 1 ? (first[0] ?? null) : null;
  return {
    models: models.map(
      ([model, rank_low, group]) => ({ model, rank_low, group }) as RankReport["models"][number],
    ),
    pairs: pairs.map(
      ([a, b, relation, unresolved_by]) => ({ a, b, relation, unresolved_by }) as RankReport["pairs"][number],
    ),
    groups,
    could_be_first: first,
    top,
    top_resolved: top !== null,
    reference,
  };
}

/** a above b and c; b and c tied. */
const CLEAR_TOP = ranking(
  [
    ["a", 1, 1],
    ["b", 2, 2],
    ["c", 2, 2],
  ],
  [
    ["a", "b", "a_better", null],
    ["a", "c", "a_better", null],
    ["b", "c", "unresolved", "run_variance"],
  ],
  "c",
);

/** a and b tied at the top, both above c. */
const TIED_TOP = ranking(
  [
    ["a", 1, 1],
    ["b", 1, 1],
    ["c", 3, 2],
  ],
  [
    ["a", "b", "unresolved", "validity"],
    ["c", "a", "b_better", null],
    ["b", "c", "a_better", null],
  ],
  "a",
);

/** One group by a chain: a above c only; b tied with both. */
const CHAIN = ranking(
  [
    ["a", 1, 1],
    ["b", 1, 1],
    ["c", 2, 1],
  ],
  [
    ["a", "b", "unresolved", "run_variance"],
    ["a", "c", "a_better", null],
    ["b", "c", "unresolved", "validity"],
  ],
);

describe("rankGate: top_resolved (the default)", () => {
  it("accepts a resolved top, and is unresolved on a tie at the top; never rejects", () => {
    expect(rankGate(CLEAR_TOP, "top_resolved", null)).toEqual({
      require: "top_resolved",
      candidate: null,
      verdict: "accept",
      reasons: ['The top is resolved: "a" is ordered above every other model.'],
    });
    expect(rankGate(TIED_TOP, "top_resolved", "c")).toEqual({
      require: "top_resolved",
      candidate: "c",
      verdict: "unresolved",
      reasons: [
        'The top is unresolved: 2 models could be first ("a", "b"): no model is ordered above them, and none is ordered above every other.',
      ],
    });
  });
});

describe("rankGate: top_group", () => {
  it("accepts a candidate that could be first and is ordered above every model that could not", () => {
    expect(rankGate(CLEAR_TOP, "top_group", "a")).toEqual({
      require: "top_group",
      candidate: "a",
      verdict: "accept",
      reasons: [
        '"a" is in the top group: it could be first (no model is ordered above it), and it is ordered above every model that could not (2 models).',
      ],
    });
    expect(rankGate(TIED_TOP, "top_group", "b").verdict).toBe("accept");
    expect(rankGate(TIED_TOP, "top_group", "b").reasons[0]).toBe(
      '"b" is in the top group: it could be first (no model is ordered above it), and it is ordered above every model that could not (1 model).',
    );
    // A chain keeps every model in one group, but a could be first and is above c, the one that could not.
    expect(rankGate(CHAIN, "top_group", "a").verdict).toBe("accept");
  });

  it("rejects when a model is ordered above the candidate, naming them in leaderboard order", () => {
    expect(rankGate(CLEAR_TOP, "top_group", "c")).toEqual({
      require: "top_group",
      candidate: "c",
      verdict: "reject",
      reasons: ['"c" could not be first: 1 model is ordered above it ("a").'],
    });
    expect(rankGate(TIED_TOP, "top_group", "c").reasons).toEqual([
      '"c" could not be first: 2 models are ordered above it ("a", "b").',
    ]);
    // In one group by a chain, a model ordered above still rejects.
    expect(rankGate(CHAIN, "top_group", "c").verdict).toBe("reject");
  });

  it("is unresolved when the candidate could be first but is not above every model that could not", () => {
    expect(rankGate(CHAIN, "top_group", "b")).toEqual({
      require: "top_group",
      candidate: "b",
      verdict: "unresolved",
      reasons: [
        '"b" could be first (no model is ordered above it), but it is not ordered above 1 model that could not ("c").',
      ],
    });
    const allFirst = ranking(
      [
        ["a", 1, 1],
        ["b", 1, 1],
      ],
      [["a", "b", "unresolved", "run_variance"]],
    );
    expect(rankGate(allFirst, "top_group", "b").reasons).toEqual([
      '"b" could be first, but so could every one of the 2 models: the evidence separates no top group from the rest.',
    ]);
  });
});

describe("rankGate: above_reference", () => {
  it("accepts above, rejects below, either orientation of the pair", () => {
    expect(rankGate(CLEAR_TOP, "above_reference", "a")).toEqual({
      require: "above_reference",
      candidate: "a",
      verdict: "accept",
      reasons: ['"a" is ordered above the reference "c".'],
    });
    expect(rankGate(TIED_TOP, "above_reference", "c")).toEqual({
      require: "above_reference",
      candidate: "c",
      verdict: "reject",
      reasons: ['The reference "a" is ordered above "c".'],
    });
  });

  it("is unresolved on a tie, saying whether the open labels or run variance keep it", () => {
    expect(rankGate(CLEAR_TOP, "above_reference", "b").reasons).toEqual([
      '"b" and the reference "c" are not ordered: run variance keeps them apart by less than the adjusted confidence bounds.',
    ]);
    expect(rankGate(TIED_TOP, "above_reference", "b")).toEqual({
      require: "above_reference",
      candidate: "b",
      verdict: "unresolved",
      reasons: [
        '"b" and the reference "a" are not ordered: the open validity labels alone can decide their order.',
      ],
    });
  });
});

describe("orderedAbove", () => {
  it("lists the models ordered above one, in leaderboard order", () => {
    expect(orderedAbove(TIED_TOP, "c")).toEqual(["a", "b"]);
    expect(orderedAbove(TIED_TOP, "a")).toEqual([]);
    expect(orderedAbove(CHAIN, "c")).toEqual(["a"]);
  });
});

describe("checkRankGate", () => {
  const message = (f: () => void): string => {
    try {
      f();
    } catch (e) {
      expect(e).toBeInstanceOf(InputError);
      return (e as Error).message;
    }
    return "no error";
  };
  it("needs a candidate for top_group and above_reference, among the models", () => {
    expect(
      message(() => {
        checkRankGate("top_resolved", null, null, ["a", "b"]);
      }),
    ).toBe("no error");
    expect(
      message(() => {
        checkRankGate("top_group", null, null, ["a", "b"]);
      }),
    ).toBe(
      "The policy's rank.require is top_group: name the candidate (the action's candidate input, the CLI's --candidate).",
    );
    expect(
      message(() => {
        checkRankGate("top_group", "z", null, ["a", "b"]);
      }),
    ).toBe('The candidate "z" is not among the ranked models ("a", "b"): add it to the models.');
    expect(
      message(() => {
        checkRankGate("top_group", "z", null, null);
      }),
    ).toBe("no error");
  });
  it("needs a reference other than the candidate for above_reference", () => {
    expect(
      message(() => {
        checkRankGate("above_reference", "a", null, ["a", "b"]);
      }),
    ).toBe(
      "The policy's rank.require is above_reference: name the reference (the policy's rank.reference, the action's reference input, the CLI's --reference).",
    );
    expect(
      message(() => {
        checkRankGate("above_reference", "a", "a", ["a", "b"]);
      }),
    ).toBe('The candidate and the reference are the same model ("a"): above_reference compares two models.');
    expect(
      message(() => {
        checkRankGate("above_reference", "a", "b", ["a", "b"]);
      }),
    ).toBe("no error");
  });
});

const BASE_POLICY = policyWith(50);

describe("the policy's rank section", () => {
  it("is optional; require defaults to top_resolved and reference to none", () => {
    expect(parsePolicy(BASE_POLICY, "policy.yaml").rank).toBeUndefined();
    expect(parsePolicy(BASE_POLICY + "rank:\n  require: top_group\n", "policy.yaml").rank).toEqual({
      require: "top_group",
      reference: null,
    });
    expect(
      parsePolicy(BASE_POLICY + "rank:\n  require: above_reference\n  reference: cfg-prod\n", "policy.yaml")
        .rank,
    ).toEqual({ require: "above_reference", reference: "cfg-prod" });
    expect(parsePolicy(BASE_POLICY + "rank: {}\n", "policy.yaml").rank).toEqual({
      require: "top_resolved",
      reference: null,
    });
  });

  it("rejects unknown values and keys with the line and what was expected", () => {
    const problems = (text: string): string[] => {
      try {
        parsePolicy(BASE_POLICY + text, "policy.yaml");
      } catch (e) {
        return (e as InputError).problems.map((p) => `${p.location?.line}: ${p.field}: ${p.message}`);
      }
      return [];
    };
    const line = BASE_POLICY.split("\n").length;
    expect(problems("rank:\n  require: top\n")).toEqual([
      `${line + 1}: rank.require: expected one of top_resolved, top_group, above_reference; got "top"`,
    ]);
    expect(problems("rank:\n  reference: 12\n")).toEqual([
      `${line + 1}: rank.reference: expected a model_config id (the production config the ranking compares with), e.g. "cfg-prod"; got the number 12`,
    ]);
    expect(problems("rank:\n  requires: top_group\n")).toEqual([
      `${line + 1}: rank.requires: unknown key "requires"; did you mean "require"? the keys allowed here are require, reference`,
    ]);
    expect(problems("rank: top_group\n")).toEqual([
      `${line}: rank: expected a mapping of keys; got "top_group"`,
    ]);
  });
});

/** 60 valid tasks: a passes 50, b 25, c 24 (b and c differ on 5 tasks): a on top, b and c tied. */
function clearTopTasks(): MultiTask[] {
  return Array.from({ length: 60 }, (_, i) => ({
    id: `t-${String(i).padStart(3, "0")}`,
    validity: "valid" as const,
    results: {
      "cfg-a": [i < 50 ? "pass" : "fail"],
      "cfg-b": [i < 25 ? "pass" : "fail"],
      "cfg-c": [i >= 3 && i < 27 ? "pass" : "fail"],
    },
  }));
}

describe("the gate in runRank's report", () => {
  const dir = mkdtempSync(join(tmpdir(), "rank-gate-"));
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  const results = writeMulti(dir, clearTopTasks());
  const rank = async (extra: string, candidate: string | null, reference: string | null = null) => {
    const inputs = await rankInputs(results, BASE_POLICY + extra, ["cfg-a", "cfg-b", "cfg-c"]);
    return runRank(inputs.data, inputs.policy, { reference, candidate, toolVersion: "test" });
  };

  it("is top_resolved without a rank section, and gates per rank.require with a candidate", async () => {
    const plain = await rank("", null);
    expect(plain.schema_version).toBe("1.5.0");
    expect(plain.could_be_first).toEqual(["cfg-a"]);
    expect(plain.groups).toEqual([["cfg-a"], ["cfg-b", "cfg-c"]]);
    expect(plain.gate).toEqual({
      require: "top_resolved",
      candidate: null,
      verdict: "accept",
      reasons: ['The top is resolved: "cfg-a" is ordered above every other model.'],
    });
    expect((await rank("rank:\n  require: top_group\n", "cfg-a")).gate.verdict).toBe("accept");
    expect((await rank("rank:\n  require: top_group\n", "cfg-b")).gate.verdict).toBe("reject");
    const vsRef = await rank("rank:\n  require: above_reference\n", "cfg-b", "cfg-c");
    expect(vsRef.gate).toEqual({
      require: "above_reference",
      candidate: "cfg-b",
      verdict: "unresolved",
      reasons: [
        '"cfg-b" and the reference "cfg-c" are not ordered: run variance keeps them apart by less than the adjusted confidence bounds.',
      ],
    });
    expect(rankGateTitle(vsRef)).toBe(
      'Unresolved (rank.require: above_reference, candidate "cfg-b"): "cfg-a" is first; 3 models ranked',
    );
    expect(renderRankGateMarkdown(vsRef, "Model ranking")).toBe(
      [
        "## ⚠️ unresolved — rank gate",
        "",
        "<sub>Model ranking</sub>",
        "",
        "Requirement (rank.require: above\\_reference): the candidate is ordered above the reference; candidate <code>cfg\\-b</code>, reference <code>cfg\\-c</code>.",
        "",
        '- "cfg\\-b" and the reference "cfg\\-c" are not ordered: run variance keeps them apart by less than the adjusted confidence bounds\\.',
        "",
      ].join("\n"),
    );
  });

  it("refuses a gate it cannot decide before computing anything", async () => {
    await expect(rank("rank:\n  require: top_group\n", null)).rejects.toThrow(
      "The policy's rank.require is top_group: name the candidate",
    );
    await expect(rank("rank:\n  require: above_reference\n", "cfg-a")).rejects.toThrow(
      "The policy's rank.require is above_reference: name the reference",
    );
  });
});
