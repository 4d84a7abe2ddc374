/**
 * The shells' shared step (src/read/run-inputs.ts) reads every input of a run in the order the
 * user's errors are reported: the two model ids, the policy (a policy error comes before any
 * problem of the export), the export, the labels as of --as-of-review, the previous versions.
 * What it returns is all runGate needs (the core reads nothing).
 */
import { basename } from "node:path";

import { describe, expect, it } from "vitest";

import { InputError, PolicyError } from "../../src/core/errors.js";
import { runGate } from "../../src/core/gate.js";
import { readRunInputs, type RunRequest } from "../../src/read/run-inputs.js";
import { DEFAULT_POLICY } from "../helpers/export-writer.js";
import { fixtures, review, row } from "./fixtures.js";

const fx = fixtures("run-inputs");

async function request(over: Partial<RunRequest> = {}): Promise<RunRequest> {
  const results = await fx.jsonl("results.jsonl", [row(), row({ model_config: "cand" })]);
  return {
    results: [results],
    reviews: [],
    policy: { path: "/repo/policy.yaml", text: DEFAULT_POLICY, source: "file", lastCommit: null },
    headPolicyText: null,
    baseline: "base",
    candidate: "cand",
    canary: null,
    today: "2026-11-29",
    toolVersion: "0.1.0",
    displayPath: basename,
    ...over,
  };
}

async function failure(req: RunRequest): Promise<InputError> {
  try {
    await readRunInputs(req);
  } catch (e) {
    if (e instanceof InputError) return e;
    throw e;
  }
  throw new Error("expected an InputError");
}

describe("readRunInputs: errors in the order the user meets them", () => {
  const missing = "/nowhere/missing.jsonl";

  it("the same model twice first, before a policy that does not parse", async () => {
    const err = await failure(
      await request({
        candidate: "base",
        policy: { path: "p.yaml", text: "owner: [", source: "file", lastCommit: null },
      }),
    );
    expect(err.message).toBe(
      'The baseline and the candidate are the same model_config ("base"): there is nothing to compare.',
    );
  });

  it("a policy error before any problem of the export: one that does not parse, one expired with on_expired: fail", async () => {
    const broken = await failure(
      await request({
        results: [missing],
        policy: { path: "/repo/policy.yaml", text: "owner: [", source: "file", lastCommit: null },
      }),
    );
    // (A policy that does not parse is an InputError located in the policy file.)
    expect(broken.message).toMatch(/^Invalid policy file policy\.yaml/);
    expect(broken.problems.every((p) => p.location?.file === "policy.yaml")).toBe(true);
    const expired = DEFAULT_POLICY.replace(/^revisit: .*$/m, "revisit: 2020-01-01").replace(
      /^on_expired: .*$/m,
      "on_expired: fail",
    );
    const stale = await failure(
      await request({
        results: [missing],
        policy: { path: "/repo/policy.yaml", text: expired, source: "file", lastCommit: null },
      }),
    );
    expect(stale).toBeInstanceOf(PolicyError);
    expect(stale.message).toMatch(/^policy\.yaml: the policy expired on 2020-01-01 \(today is 2026-11-29\)/);
  });

  it("two labels at a revision as of --as-of-review before a previous version that cannot be read", async () => {
    const reviews = await fx.jsonl("two-labels.jsonl", [
      review({ review_revision: 1, validity: "valid" }),
      review({ review_revision: 1, validity: "broken" }),
      review({ review_revision: 2, validity: "disputed" }),
    ]);
    const err = await failure(
      await request({ reviews: [reviews], asOfReview: 1, previous: { results: [missing], reviews: [] } }),
    );
    expect(err.message).toMatch(/^As of review revision 1, 1 task has two different labels/);
  });
});

describe("readRunInputs, then runGate", () => {
  it("the policy's provenance hashed by the shell; a large read's collection passed on only when large", async () => {
    const collections: string[] = [];
    const inputs = await readRunInputs(
      await request({
        collectGarbage: () => {
          collections.push("gc");
        },
      }),
    );
    expect(inputs.policy.source).toMatchObject({ path: "policy.yaml", source: "file", lastCommit: null });
    expect(inputs.policy.source.sha256).toMatch(/^[0-9a-f]{64}$/);
    // Two tasks are no large read: no collection asked for, now or by runGate.
    expect(inputs.options.collectGarbage).toBeUndefined();
    const report = runGate(inputs.dataset, inputs.policy, inputs.options);
    expect(report.provenance.policy.sha256).toBe(inputs.policy.source.sha256);
    expect(collections).toEqual([]);
  });
});
