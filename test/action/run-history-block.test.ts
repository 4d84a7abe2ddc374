/**
 * The pure pieces of the run history (docs/runs.md): the comment's block (bounded, versioned,
 * schema-checked), the check run record, the `reruns` check, the shopping words and the policy key.
 */
import { describe, expect, it } from "vitest";
import {
  blockDigest,
  encodeRunsBlock,
  externalId,
  parseExternalId,
  readRunsBlock,
  RUNS_BLOCK_MAX_CHARS,
  RUNS_BLOCK_PREFIX,
} from "../../src/action/run-history.js";
import { diffPolicies, diffPolicyTexts } from "../../src/core/policy/policy-diff.js";
import { parsePolicy } from "../../src/core/policy/load-policy.js";
import {
  movedTowardsAccept,
  ordinal,
  rerunsCheck,
  RUN_HISTORY_MAX,
  shoppingLine,
  type EarlierRun,
  type RunsReport,
} from "../../src/core/run-history/runs-report.js";
import type { RunSummary } from "../../src/core/run-history/run-types.js";
import { MINIMAL, MINIMAL_POLICY, problems } from "../policy/helpers.js";
import { commentBody } from "../../src/action/evaluate-mode.js";
import { COMMENT_BODY_MAX } from "../../src/core/report/github-limits.js";
import { hostileReport } from "../report/fixtures.js";

function summary(over: Partial<RunSummary> = {}): RunSummary {
  return {
    head_sha: "d".repeat(40),
    baseline: "cfg-baseline",
    candidate: "cfg-candidate",
    digests: { results: "1".repeat(64), reviews: "2".repeat(64), policy: "3".repeat(64) },
    review_revision_max: 1,
    verdict: "unresolved",
    margin: 0.05,
    lcb: -0.01,
    ucb: 0.11,
    margin_low: 0.04,
    margin_high: 0.06,
    ...over,
  };
}

function bodyWith(payload: string): string {
  return `<!-- model-acceptance-gate -->\n${RUNS_BLOCK_PREFIX}${payload} -->\n## report`;
}

const b64 = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString("base64");

describe("the run-history block", () => {
  it("round-trips, and its digest is the one the check run records", () => {
    const enc = encodeRunsBlock([summary({ verdict: "accept" }), summary()], 3);
    expect(enc).toMatchObject({ kept: 2, notKept: 3 });
    const read = readRunsBlock(`x\n${enc.line}\ny`);
    expect(read).toEqual({
      kind: "read",
      block: { runs: [summary({ verdict: "accept" }), summary()], not_kept: 3 },
      digest: enc.digest,
    });
    expect(enc.digest).toBe(blockDigest(enc.line.slice(RUNS_BLOCK_PREFIX.length, -4)));
    expect(enc.digest).toMatch(/^[0-9a-f]{32}$/);
  });

  it("keeps at most RUN_HISTORY_MAX rows and drops the oldest to fit its size bound, counting them", () => {
    const many = Array.from({ length: RUN_HISTORY_MAX + 3 }, (_, i) => summary({ margin: i }));
    const enc = encodeRunsBlock(many, 1);
    expect(enc).toMatchObject({ kept: RUN_HISTORY_MAX, notKept: 4 });
    const long = "m".repeat(500);
    const big = Array.from({ length: RUN_HISTORY_MAX }, () => summary({ baseline: long, candidate: long }));
    const fit = encodeRunsBlock(big, 0);
    expect(fit.line.length).toBeLessThanOrEqual(RUNS_BLOCK_MAX_CHARS + RUNS_BLOCK_PREFIX.length + 4);
    expect(fit.kept).toBeLessThan(RUN_HISTORY_MAX);
    expect(fit.kept + fit.notKept).toBe(RUN_HISTORY_MAX);
  });

  it("a missing, foreign, oversized, non-base64, non-JSON or off-schema block is named, never thrown", () => {
    expect(readRunsBlock("no block here")).toEqual({ kind: "none" });
    expect(readRunsBlock("<!-- model-gate:runs v2 abc -->")).toEqual({
      kind: "broken",
      problem: "a run-history block of another version",
    });
    expect(readRunsBlock(`${RUNS_BLOCK_PREFIX}abc`)).toEqual({
      kind: "broken",
      problem: "the run-history block is not closed",
    });
    expect(readRunsBlock(bodyWith("A".repeat(RUNS_BLOCK_MAX_CHARS + 1)))).toEqual({
      kind: "broken",
      problem: `the run-history block is ${RUNS_BLOCK_MAX_CHARS + 1} characters (at most ${RUNS_BLOCK_MAX_CHARS})`,
    });
    expect(readRunsBlock(bodyWith("%%"))).toEqual({
      kind: "broken",
      problem: "the run-history block is not base64",
    });
    expect(readRunsBlock(bodyWith(Buffer.from("{nope").toString("base64")))).toEqual({
      kind: "broken",
      problem: "the run-history block is not JSON",
    });
    // A task id smuggled in: strictObject refuses the unknown key.
    expect(readRunsBlock(bodyWith(b64({ runs: [{ ...summary(), task_id: "t-1" }], not_kept: 0 })))).toEqual({
      kind: "broken",
      problem: 'the run-history block does not match its schema (runs.0: Unrecognized key: "task_id")',
    });
    expect(
      readRunsBlock(bodyWith(b64({ runs: [summary({ verdict: "maybe" as "accept" })], not_kept: 0 }))),
    ).toMatchObject({
      kind: "broken",
      problem: expect.stringMatching(
        /^the run-history block does not match its schema \(runs\.0\.verdict: /,
      ) as unknown,
    });
    expect(
      readRunsBlock(
        bodyWith(b64({ runs: Array.from({ length: RUN_HISTORY_MAX + 1 }, () => summary()), not_kept: 0 })),
      ),
    ).toMatchObject({ kind: "broken" });
  });
});

describe("the check run record (external_id)", () => {
  it("is short, round-trips, and anything else is not the action's", () => {
    const id = externalId({ verdict: "accept", results: "0123456789abcdef", block: "f".repeat(32) });
    expect(id).toBe(`model-gate/1 accept 0123456789abcdef ${"f".repeat(32)}`);
    expect(id.length).toBe(69);
    expect(parseExternalId(id)).toEqual({
      verdict: "accept",
      results: "0123456789abcdef",
      block: "f".repeat(32),
    });
    for (const bad of [
      null,
      undefined,
      "",
      "model-gate/2 accept 0123456789abcdef " + "f".repeat(32),
      id + " ",
      id.toUpperCase(),
    ])
      expect(parseExternalId(bad)).toBeNull();
  });
});

function earlier(
  verdict: EarlierRun["verdict"],
  other: boolean,
  pooled: boolean | null = null,
  id = 1,
): EarlierRun {
  return { check_run_id: id, verdict, results_digest: "0123456789abcdef", other_results: other, pooled };
}

describe("re-runs", () => {
  it("ordinals and the shopping words", () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111].map(ordinal)).toEqual([
      "1st",
      "2nd",
      "3rd",
      "4th",
      "11th",
      "12th",
      "13th",
      "21st",
      "22nd",
      "23rd",
      "101st",
      "111th",
    ]);
    const runs = {
      run_count: 3,
      earlier_verdicts: ["unresolved", "unresolved"],
      towards_accept: true,
    } as unknown as RunsReport;
    expect(shoppingLine("accept", runs)).toBe(
      "accept on the 3rd run of the same config; earlier: unresolved, unresolved",
    );
    expect(shoppingLine("accept", { ...runs, towards_accept: false })).toBeNull();
    expect(shoppingLine("accept", undefined)).toBeNull();
  });

  it("moves towards accept only over runs with other results", () => {
    expect(movedTowardsAccept("accept", [earlier("unresolved", true)])).toBe(true);
    expect(movedTowardsAccept("unresolved", [earlier("reject", true)])).toBe(true);
    expect(movedTowardsAccept("accept", [earlier("unresolved", false)])).toBe(false);
    expect(movedTowardsAccept("unresolved", [earlier("accept", true)])).toBe(false);
    expect(movedTowardsAccept("accept", [])).toBe(false);
  });

  it("the reruns check: none under latest; fail, pool and an unreadable history", () => {
    expect(
      rerunsCheck({ mode: "latest", unavailable: null, earlier: [earlier("unresolved", true)] }),
    ).toBeNull();
    expect(
      rerunsCheck({ mode: "fail", unavailable: null, earlier: [earlier("accept", false)] }),
    ).toMatchObject({
      check: { id: "reruns", passed: true, observed: 0 },
      rejects: false,
    });
    expect(
      rerunsCheck({ mode: "fail", unavailable: null, earlier: [earlier("unresolved", true)] }),
    ).toMatchObject({
      check: { id: "reruns", passed: false, observed: 1, kind: "evidence" },
      rejects: true,
    });
    // The rejection names the earlier check run it compared with, and this run's results.
    expect(
      rerunsCheck({
        mode: "fail",
        unavailable: null,
        earlier: [earlier("accept", false, null, 3), earlier("unresolved", true, null, 5)],
        current: "fedcba9876543210",
      })?.check.detail,
    ).toBe(
      "The eval was re-run on this commit: 1 earlier run of this gate had other results than this run's " +
        "(results fedcba9876543210): check run 5 (unresolved, results 0123456789abcdef). reruns: fail rejects a " +
        "re-run; push a new commit, or use reruns: pool to decide on every run's attempts together.",
    );
    expect(
      rerunsCheck({
        mode: "pool",
        unavailable: null,
        earlier: [earlier("accept", true, true), earlier("reject", true, false, 7)],
      }),
    ).toMatchObject({
      check: {
        passed: false,
        observed: 1,
        detail: expect.stringContaining("missing: check run 7 (reject, results 0123456789abcdef)") as unknown,
      },
      rejects: false,
    });
    for (const mode of ["fail", "pool"] as const)
      expect(
        rerunsCheck({ mode, unavailable: "listing the check runs failed: 403 Forbidden", earlier: [] }),
      ).toMatchObject({
        check: { passed: false, observed: null },
        rejects: false,
      });
  });
});

describe("the policy key reruns", () => {
  it("defaults to latest, takes pool and fail, refuses anything else", () => {
    expect(MINIMAL_POLICY.reruns).toBe("latest");
    expect(parsePolicy(MINIMAL, "p.yaml").reruns).toBe("latest");
    expect(parsePolicy(`${MINIMAL}\nreruns: pool\n`, "p.yaml").reruns).toBe("pool");
    expect(parsePolicy(`${MINIMAL}\nreruns: fail\n`, "p.yaml").reruns).toBe("fail");
    expect(problems(`${MINIMAL}\nreruns: sometimes\n`).join("\n")).toMatch(/reruns/);
  });

  it("a move towards latest is a loosening", () => {
    const p = (reruns: "latest" | "pool" | "fail") => ({ ...MINIMAL_POLICY, reruns });
    expect(diffPolicies(p("fail"), p("latest"))).toEqual([
      { key: "reruns", base: "fail", head: "latest", loosening: true },
    ]);
    expect(diffPolicies(p("pool"), p("latest"))).toEqual([
      { key: "reruns", base: "pool", head: "latest", loosening: true },
    ]);
    expect(diffPolicies(p("latest"), p("fail"))).toEqual([
      { key: "reruns", base: "latest", head: "fail", loosening: false },
    ]);
    expect(diffPolicyTexts(MINIMAL, `${MINIMAL}\nreruns: fail\n`, "p.yaml").changes).toEqual([
      { key: "reruns", base: "latest", head: "fail", loosening: false },
    ]);
  });
});

describe("the comment with a full run-history block", () => {
  it("stays within GitHub's 65,536 characters however large the report", () => {
    const long = "m".repeat(500);
    const rows = Array.from({ length: RUN_HISTORY_MAX }, () => summary({ baseline: long, candidate: long }));
    const block = encodeRunsBlock(rows, 0);
    const { body } = commentBody(
      hostileReport(),
      "Model acceptance gate",
      "Model acceptance gate",
      block.line,
    );
    expect(body.length).toBeLessThanOrEqual(COMMENT_BODY_MAX);
    expect(body).toContain(block.line);
    expect(readRunsBlock(body)).toMatchObject({ kind: "read", digest: block.digest });
  });
});
