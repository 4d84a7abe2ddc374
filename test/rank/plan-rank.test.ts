// planRank (src/core/rank/plan-rank.ts): the one place the CLI and the action settle a ranking's
// reference, requirement and candidate from the policy's rank section, before the export is read.
import { describe, expect, it } from "vitest";
import { InputError } from "../../src/core/errors.js";
import { planRank, type RankRequest } from "../../src/core/rank/plan-rank.js";
import { policyWith } from "./rank-helpers.js";

const CLI = { models: "--models", reference: "--reference" } as const;
const request = (r: Partial<RankRequest>): RankRequest => ({
  models: ["a", "b", "c"],
  reference: null,
  candidate: null,
  names: CLI,
  ...r,
});
function thrown(f: () => unknown): unknown {
  try {
    f();
  } catch (error) {
    return error;
  }
  return null;
}

describe("planRank", () => {
  it("takes the policy's rank.reference and rank.require when the request names none", () => {
    const policy = policyWith(50, "rank:\n  require: above_reference\n  reference: b\n");
    expect(planRank(policy, "p.yaml", request({ candidate: "a" }))).toEqual({
      reference: "b",
      candidate: "a",
      require: "above_reference",
    });
  });

  it("the request's reference wins over the policy's; without a rank section the gate is top_resolved", () => {
    const policy = policyWith(50, "rank:\n  reference: z\n");
    expect(planRank(policy, "p.yaml", request({ reference: "c" }))).toEqual({
      reference: "c",
      candidate: null,
      require: "top_resolved",
    });
    expect(planRank(policyWith(50), "p.yaml", request({ models: null }))).toEqual({
      reference: null,
      candidate: null,
      require: "top_resolved",
    });
  });

  it("a policy reference not among the named models is named as the policy's, in the shell's words", () => {
    const policy = policyWith(50, "rank:\n  reference: z\n");
    const cli = thrown(() => planRank(policy, "p.yaml", request({})));
    expect(cli).toBeInstanceOf(InputError);
    expect((cli as Error).message).toBe(
      'The policy\'s rank.reference "z" is not among --models ("a", "b", "c"): add it there, or set --reference.',
    );
    const action = thrown(() =>
      planRank(
        policy,
        "p.yaml",
        request({ names: { models: "the models input", reference: "the reference input" } }),
      ),
    );
    expect((action as Error).message).toBe(
      'The policy\'s rank.reference "z" is not among the models input ("a", "b", "c"): add it there, or set the reference input.',
    );
    // Every model of the export (not known yet): the ranking checks it after the read.
    expect(planRank(policy, "p.yaml", request({ models: null })).reference).toBe("z");
  });

  it("the gate's own checks apply (a candidate for top_group), and a policy that does not parse is refused, naming its file", () => {
    const policy = policyWith(50, "rank:\n  require: top_group\n");
    expect((thrown(() => planRank(policy, "p.yaml", request({}))) as Error).message).toMatch(
      /^The policy's rank\.require is top_group: name the candidate/,
    );
    const broken = thrown(() => planRank("not: [a policy", "p.yaml", request({})));
    expect(broken).toBeInstanceOf(InputError);
    expect((broken as Error).message).toMatch(/^Invalid policy file p\.yaml/);
  });
});
