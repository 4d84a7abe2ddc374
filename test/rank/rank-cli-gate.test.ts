// `model-gate rank --candidate`: the policy's rank.require decides the exit status (0 accept,
// 1 reject, 2 unresolved), the Markdown opens with the gate, and --reference falls back to the
// policy's rank.reference. The action's rank mode gives the same verdicts (test/action/rank-*.test.ts).
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { RankReport } from "../../src/core/rank/rank-types.js";
import { tempDir } from "../helpers/export-writer.js";
import { cliInProcess } from "../helpers/run-cli.js";
import { policyWith, writeMulti, type MultiTask } from "./rank-helpers.js";

const dir = tempDir("rank-cli-gate-");
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** 60 valid tasks: a passes 50, b 25, c 24 (b and c differ on 5 tasks): a on top, b and c tied. */
const TASKS: MultiTask[] = Array.from({ length: 60 }, (_, i) => ({
  id: `t-${String(i).padStart(3, "0")}`,
  validity: "valid",
  results: {
    "cfg-a": [i < 50 ? "pass" : "fail"],
    "cfg-b": [i < 25 ? "pass" : "fail"],
    "cfg-c": [i >= 3 && i < 27 ? "pass" : "fail"],
  },
}));
const results = writeMulti(dir, TASKS);

function policy(name: string, rank: string): string {
  const path = join(dir, name);
  writeFileSync(path, policyWith(50) + rank);
  return path;
}
const TOP_GROUP = policy("top-group.yaml", "rank:\n  require: top_group\n");
const ABOVE_REF = policy("above-ref.yaml", "rank:\n  require: above_reference\n  reference: cfg-c\n");

const rank = (policyPath: string, ...extra: string[]) =>
  cliInProcess(["rank", "--results", results, "--policy", policyPath, "--today", "2026-11-29", ...extra]);

describe("model-gate rank --candidate", () => {
  it("exit status is the gate's verdict: accept 0, reject 1, unresolved 2", async () => {
    const accept = await rank(TOP_GROUP, "--candidate", "cfg-a", "--format", "json");
    expect(accept.stderr).toBe("");
    expect(accept.code).toBe(0);
    expect((JSON.parse(accept.stdout) as RankReport).gate.verdict).toBe("accept");
    const reject = await rank(TOP_GROUP, "--candidate", "cfg-c", "--format", "json");
    expect(reject.code).toBe(1);
    expect((JSON.parse(reject.stdout) as RankReport).gate).toEqual({
      require: "top_group",
      candidate: "cfg-c",
      verdict: "reject",
      reasons: ['"cfg-c" could not be first: 1 model is ordered above it ("cfg-a").'],
    });
    const tie = await rank(ABOVE_REF, "--candidate", "cfg-b", "--format", "json");
    expect(tie.code).toBe(2);
    const r = JSON.parse(tie.stdout) as RankReport;
    expect(r.reference).toBe("cfg-c");
    expect(r.gate.verdict).toBe("unresolved");
  });

  it("--reference overrides the policy's rank.reference", async () => {
    const run = await rank(ABOVE_REF, "--candidate", "cfg-a", "--reference", "cfg-b", "--format", "json");
    expect(run.code).toBe(0);
    expect((JSON.parse(run.stdout) as RankReport).gate.reasons).toEqual([
      '"cfg-a" is ordered above the reference "cfg-b".',
    ]);
  });

  it("Markdown and text open with the gate when the policy gates on a candidate, not otherwise", async () => {
    const md = await rank(TOP_GROUP, "--candidate", "cfg-a");
    expect(md.stdout.split("\n").slice(0, 3)).toEqual([
      "## ✅ accept — rank gate",
      "",
      "Requirement (rank.require: top\\_group): the candidate could be first and is ordered above every model that could not; candidate <code>cfg\\-a</code>.",
    ]);
    const text = await rank(TOP_GROUP, "--candidate", "cfg-a", "--format", "text");
    expect(text.stdout.split("\n")[0]).toBe(
      'Rank gate: accept. "cfg-a" is in the top group: it could be first (no model is ordered above it), and it is ordered above every model that could not (2 models).',
    );
    const plain = await rank(policy("plain.yaml", ""));
    expect(plain.code).toBe(0);
    expect(plain.stdout.startsWith("## Model ranking: ")).toBe(true);
  });

  it("a gate without its candidate, or a candidate not ranked, is a usage error (exit 3)", async () => {
    const none = await rank(TOP_GROUP);
    expect(none.code).toBe(3);
    expect(none.stderr).toContain(
      "The policy's rank.require is top_group: name the candidate (the action's candidate input, the CLI's --candidate).",
    );
    const stranger = await rank(TOP_GROUP, "--models", "cfg-a,cfg-b", "--candidate", "cfg-c");
    expect(stranger.code).toBe(3);
    expect(stranger.stderr).toContain(
      '--candidate "cfg-c" is not among the models given with --models: add it there, or leave --models out to rank every model.',
    );
  });
});
