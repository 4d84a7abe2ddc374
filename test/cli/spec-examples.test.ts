/**
 * SPEC §6 worked examples, end to end: export file → CLI → report JSON, in-process and through the
 * committed bundle. The figures are the spec's, to 6 decimals.
 */
import { describe, expect, it } from "vitest";
import { jsonEvaluateArgs, many, results, tempDir, type TaskSpec } from "../helpers/export-writer.js";
import { cliBundle, cliInProcess, type CliRun } from "../helpers/run-cli.js";

const P = "pass" as const;
const F = "fail" as const;
const I = "infra_error" as const;

interface Json {
  verdict: string;
  comparison: Record<string, unknown>;
  models: Record<string, Record<string, unknown>>;
  checks: { id: string; passed: boolean }[];
}

const runners: [string, (argv: string[]) => Promise<CliRun> | CliRun][] = [
  ["in-process", (argv) => cliInProcess(argv)],
  ["dist/cli.js", (argv) => cliBundle(argv)],
];

/** Pair of single attempts with a given d: "+" candidate alone passes, "-" baseline alone, "=" both pass, "0" neither. */
function pair(kind: "+" | "-" | "=" | "0"): { a: ("pass" | "fail")[]; b: ("pass" | "fail")[] } {
  return {
    "+": { a: [P], b: [F] },
    "-": { a: [F], b: [P] },
    "=": { a: [P], b: [P] },
    "0": { a: [F], b: [F] },
  }[kind];
}

function example3(): TaskSpec[] {
  return [
    ...many(8, "v-both", { validity: "valid", ...pair("=") }),
    ...many(6, "v-a", { validity: "valid", ...pair("+") }),
    ...many(2, "v-b", { validity: "valid", ...pair("-") }),
    ...many(4, "v-none", { validity: "valid", ...pair("0") }),
    ...many(1, "u-a", { validity: "disputed", ...pair("+") }),
    ...many(3, "u-b", { validity: "unreviewed", ...pair("-") }),
    ...many(1, "u-both", { validity: "disputed", ...pair("=") }),
    ...many(1, "u-none", { validity: "disputed", ...pair("0") }),
  ];
}

function example5(): TaskSpec[] {
  return [
    ...many(70, "v-a", { validity: "valid", ...pair("+") }),
    ...many(40, "v-b", { validity: "valid", ...pair("-") }),
    ...many(205, "v-both", { validity: "valid", ...pair("=") }),
    ...many(205, "v-none", { validity: "valid", ...pair("0") }),
    ...many(2, "u-a", { validity: "disputed", ...pair("+") }),
    ...many(6, "u-b", { validity: "disputed", ...pair("-") }),
    ...many(12, "u-tie", { validity: "disputed", ...pair("=") }),
  ];
}

describe.each(runners)("SPEC §6 worked examples via the CLI (%s)", (_name, run) => {
  it("example 1: per-model single attempt, exact and pessimistic intervals", async () => {
    const dir = tempDir();
    // Candidate: 10 valid tasks with 6 passes; 4 unresolved with 1 pass, 3 fails. Baseline passes all.
    const tasks: TaskSpec[] = [
      ...many(6, "v-pass", { validity: "valid", a: [P], b: [P] }),
      ...many(4, "v-fail", { validity: "valid", a: [F], b: [P] }),
      ...many(1, "u-pass", { validity: "disputed", a: [P], b: [P] }),
      ...many(3, "u-fail", { validity: "unreviewed", a: [F], b: [P] }),
    ];
    const r = await run(jsonEvaluateArgs(dir, tasks));
    expect(r.stderr).toBe("");
    const report = JSON.parse(r.stdout) as Json;
    const cand = report.models["candidate"] ?? {};
    expect(cand["valid_only_score"]).toBeCloseTo(0.6, 6);
    const exact = cand["interval_exact"] as number[];
    expect(exact[0]).toBeCloseTo(6 / 13, 6);
    expect(exact[1]).toBeCloseTo(7 / 11, 6);
    expect(exact[0]).toBeCloseTo(0.461538, 6);
    expect(exact[1]).toBeCloseTo(0.636364, 6);
    const pess = cand["interval_pessimistic"] as number[];
    expect(pess[0]).toBeCloseTo(0.428571, 6);
    expect(pess[1]).toBeCloseTo(0.714286, 6);
  });

  it("example 2: per-model, 4 attempts per task", async () => {
    const dir = tempDir();
    const valid = [4, 4, 3, 2, 2, 1, 0, 0];
    const unresolved = [3, 1, 0];
    const tasks: TaskSpec[] = [
      ...valid.map((p, i) => ({
        id: `v-${i}`,
        validity: "valid" as const,
        a: results(p, 4),
        b: results(2, 4),
      })),
      ...unresolved.map((p, i) => ({
        id: `u-${i}`,
        validity: "disputed" as const,
        a: results(p, 4),
        b: results(2, 4),
      })),
    ];
    const r = await run(jsonEvaluateArgs(dir, tasks));
    const report = JSON.parse(r.stdout) as Json;
    const exact = (report.models["candidate"] ?? {})["interval_exact"] as number[];
    expect(exact[0]).toBeCloseTo(0.425, 6);
    expect(exact[1]).toBeCloseTo(0.527778, 6);
  });

  it("example 3: paired exact margin bounds, one S for both models", async () => {
    const dir = tempDir();
    const r = await run(jsonEvaluateArgs(dir, example3()));
    const c = (JSON.parse(r.stdout) as Json).comparison;
    expect(c["margin"]).toBeCloseTo(0.2, 6);
    expect(c["margin_lower"]).toBeCloseTo(1 / 25, 6);
    expect(c["margin_upper"]).toBeCloseTo(5 / 21, 6);
    expect(c["margin_upper"]).toBeCloseTo(0.238095, 6);
    expect(c["common_valid_tasks"]).toBe(20);
    expect(c["unresolved_tasks"]).toBe(6);
    expect(c["disputed_tasks"]).toBe(3);
    expect(c["unreviewed_tasks"]).toBe(3);
  });

  it("example 3: the pessimistic bound", async () => {
    const dir = tempDir();
    const policy = (await import("../helpers/export-writer.js")).DEFAULT_POLICY.replace(
      "validity_bound: exact",
      "validity_bound: pessimistic",
    );
    const r = await run(jsonEvaluateArgs(dir, example3(), policy));
    const c = (JSON.parse(r.stdout) as Json).comparison;
    expect(c["margin_lower"]).toBeCloseTo(-0.076923, 6);
    expect(c["margin_upper"]).toBeCloseTo(0.384615, 6);
  });

  it("example 4: paired bounds with K = 2", async () => {
    const dir = tempDir();
    // d = a/2 − b/2 with 2 attempts each.
    const byD: Record<string, [number, number]> = {
      "1": [2, 0],
      "0.5": [2, 1],
      "0": [1, 1],
      "-0.5": [1, 2],
      "-1": [0, 2],
    };
    const mk = (d: number, i: number, validity: "valid" | "disputed"): TaskSpec => {
      const [pa, pb] = byD[String(d)] ?? [0, 0];
      return { id: `${validity}-${i}`, validity, a: results(pa, 2), b: results(pb, 2) };
    };
    const tasks = [
      ...[1, 0.5, 0.5, 0, 0, 0, -0.5, 1, 0, 0].map((d, i) => mk(d, i, "valid")),
      ...[-1, -0.5, 0.5, 0, -0.5].map((d, i) => mk(d, i, "disputed")),
    ];
    const r = await run(jsonEvaluateArgs(dir, tasks));
    const c = (JSON.parse(r.stdout) as Json).comparison;
    expect(c["margin"]).toBeCloseTo(0.25, 6);
    expect(c["margin_lower"]).toBeCloseTo(0.035714, 6);
    expect(c["margin_upper"]).toBeCloseTo(0.272727, 6);
  });

  it("example 5: gate-sized accept (default quantile t), with review fragility 7", async () => {
    const dir = tempDir();
    const r = await run(jsonEvaluateArgs(dir, example5()));
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as Json;
    const c = report.comparison;
    expect(report.verdict).toBe("accept");
    expect(c["common_valid_tasks"]).toBe(520);
    expect(c["disputed_fraction"]).toBeCloseTo(20 / 540, 6);
    expect(c["margin"]).toBeCloseTo(0.057692, 6);
    expect(c["se_valid"]).toBeCloseTo(0.020029, 6);
    expect(c["margin_lower"]).toBeCloseTo(0.04461, 6);
    expect(c["margin_upper"]).toBeCloseTo(0.061303, 6);
    expect(c["validity_sensitivity"]).toBeCloseTo(0.013083, 6);
    expect(c["z"]).toBeCloseTo(1.644854, 6);
    expect(c["quantile"]).toBe("t");
    expect(c["nu_lower"]).toBe(537);
    expect(c["q_lower"]).toBeCloseTo(1.647696, 6);
    expect(c["se_lower"]).toBeCloseTo(0.019945, 6);
    expect(c["lcb"]).toBeCloseTo(0.011746, 6);
    expect(c["ucb"]).toBeCloseTo(0.094448, 6);
    expect(c["review_fragility"]).toBe(7);
    expect(c["review_fragility_share"]).toBeCloseTo(7 / 520, 6);
    expect(c["fragility_exact"]).toBe(true);
    expect(report.checks.every((ch) => ch.passed)).toBe(true);
  });

  it("example 5 with quantile: z", async () => {
    const dir = tempDir();
    const policy = (await import("../helpers/export-writer.js")).DEFAULT_POLICY.replace(
      "  confidence: 0.95\n",
      "  confidence: 0.95\n  quantile: z\n",
    );
    const r = await run(jsonEvaluateArgs(dir, example5(), policy));
    const report = JSON.parse(r.stdout) as Json;
    const c = report.comparison;
    expect(report.verdict).toBe("accept");
    expect(c["quantile"]).toBe("z");
    expect(c["q_lower"]).toBeCloseTo(1.644854, 6);
    expect(c["lcb"]).toBeCloseTo(0.011803, 6);
    expect(c["ucb"]).toBeCloseTo(0.094389, 6);
    expect(c["review_fragility"]).toBe(7);
    expect(c["fragility_exact"]).toBe(true);
  });

  it("example 6: the seed's defect — infra errors are neither valid nor disputed tasks", async () => {
    const dir = tempDir();
    const tasks: TaskSpec[] = [
      ...many(6, "v-pass", { validity: "valid", a: [P], b: [P] }),
      ...many(4, "v-fail", { validity: "valid", a: [F], b: [P] }),
      ...many(1, "v-infra", { validity: "valid", a: [I], b: [P] }),
      ...many(1, "u-pass", { validity: "disputed", a: [P], b: [P] }),
      ...many(3, "u-fail", { validity: "disputed", a: [F], b: [P] }),
      ...many(1, "u-infra", { validity: "disputed", a: [I], b: [P] }),
    ];
    const r = await run(jsonEvaluateArgs(dir, tasks));
    const cand = (JSON.parse(r.stdout) as Json).models["candidate"] ?? {};
    expect(cand["valid_only_score"]).toBeCloseTo(0.6, 6);
    const pess = cand["interval_pessimistic"] as number[];
    expect(pess[0]).toBeCloseTo(0.428571, 6);
    expect(pess[1]).toBeCloseTo(0.714286, 6);
    const exact = cand["interval_exact"] as number[];
    expect(exact[0]).toBeCloseTo(0.461538, 6);
    expect(exact[1]).toBeCloseTo(0.636364, 6);
    expect(cand["infra_errors"]).toBe(2);
    expect(cand["lost_to_infra_tasks"]).toBe(2);
  });
});
