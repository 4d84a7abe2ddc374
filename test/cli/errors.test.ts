/**
 * Each kind of bad input gives its documented error on stderr and exit status 3 — never a stack
 * trace, never a verdict.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  BASELINE,
  CANDIDATE,
  DEFAULT_POLICY,
  exportLines,
  many,
  tempDir,
  writeExport,
  writePolicy,
} from "../helpers/export-writer.js";
import { cliBundle, cliInProcess } from "../helpers/run-cli.js";

const good = many(3, "t", { validity: "valid", a: ["pass"], b: ["fail"] });

async function evaluateWith(
  files: { results?: string; policy?: string; reviews?: string },
  extra: string[] = [],
) {
  const dir = tempDir();
  const resultsPath = join(dir, "results.jsonl");
  writeFileSync(resultsPath, files.results ?? exportLines(good).join("\n") + "\n");
  const policyPath = writePolicy(dir, files.policy ?? DEFAULT_POLICY);
  const argv = [
    "evaluate",
    "--results",
    resultsPath,
    "--policy",
    policyPath,
    "--baseline",
    BASELINE,
    "--candidate",
    CANDIDATE,
  ];
  if (files.reviews !== undefined) {
    const reviewsPath = join(dir, "reviews.jsonl");
    writeFileSync(reviewsPath, files.reviews);
    argv.push("--reviews", reviewsPath);
  }
  argv.push("--today", "2026-11-29", ...extra);
  return { ...(await cliInProcess(argv)), dir };
}

function expectInputError(
  r: { code: number; stdout: string; stderr: string },
  ...fragments: (string | RegExp)[]
) {
  expect(r.code).toBe(3);
  expect(r.stdout).toBe("");
  expect(r.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/); // no stack trace
  for (const f of fragments) expect(r.stderr).toMatch(f);
}

const row = (over: Record<string, unknown>): string =>
  JSON.stringify({
    task_id: "t-1",
    dataset_revision: "sha256:x",
    harness_revision: "git:y",
    model_config: CANDIDATE,
    validity: "valid",
    result: "pass",
    review_revision: 1,
    ...over,
  });

describe("bad input → exit status 3 with a specific message", () => {
  it("a line that is not JSON names the file and line", async () => {
    const lines = exportLines(good);
    lines.splice(1, 0, "{not json");
    const r = await evaluateWith({ results: lines.join("\n") });
    expectInputError(r, /results\.jsonl:2\b/);
  });

  it("a missing required field names it", async () => {
    const lines = [
      ...exportLines(good),
      JSON.stringify({
        task_id: "x",
        dataset_revision: "d",
        model_config: CANDIDATE,
        validity: "valid",
        result: "pass",
        review_revision: 0,
      }),
    ];
    const r = await evaluateWith({ results: lines.join("\n") });
    expectInputError(r, new RegExp(`results\\.jsonl:${lines.length}\\b`), /harness_revision/);
  });

  it("an unknown validity or result names the field and the allowed values", async () => {
    const lines = [
      ...exportLines(good),
      row({ validity: "maybe" }),
      row({ task_id: "t-2", result: "passed" }),
    ];
    const r = await evaluateWith({ results: lines.join("\n") });
    expectInputError(r, /validity/, /result/, /infra_error/);
  });

  it("shows at most 20 errors and the total count", async () => {
    const lines = [...exportLines(good), ...Array.from({ length: 25 }, () => "nope")];
    const r = await evaluateWith({ results: lines.join("\n") });
    expectInputError(r, /25/);
    expect(r.stderr.match(/results\.jsonl:\d+/g)?.length).toBe(20);
  });

  it("a duplicate attempt with a different result is a conflict naming both lines", async () => {
    const lines = [row({ attempt: 1 }), row({ attempt: 1, result: "fail" }), row({ model_config: BASELINE })];
    const r = await evaluateWith({ results: lines.join("\n") });
    expectInputError(r, /results\.jsonl:1\b/, /results\.jsonl:2\b/);
  });

  it("conflicting labels at one review revision name both sources", async () => {
    const lines = [row({}), row({ model_config: BASELINE })];
    const reviews =
      JSON.stringify({
        task_id: "t-1",
        dataset_revision: "sha256:x",
        validity: "broken",
        review_revision: 1,
      }) + "\n";
    const r = await evaluateWith({ results: lines.join("\n"), reviews });
    expectInputError(r, /results\.jsonl:1\b/, /reviews\.jsonl:1\b/);
  });

  it("an unknown model id lists the ids present", async () => {
    const dir = tempDir();
    const r = await cliInProcess([
      "evaluate",
      "--results",
      writeExport(dir, good),
      "--policy",
      writePolicy(dir),
      "--baseline",
      "cfg-nope",
      "--candidate",
      CANDIDATE,
      "--today",
      "2026-11-29",
    ]);
    expectInputError(r, /cfg-nope/, new RegExp(BASELINE), new RegExp(CANDIDATE));
  });

  it("an invalid policy names the policy line", async () => {
    const r = await evaluateWith({ policy: DEFAULT_POLICY.replace('">= 500"', '">= lots"') });
    expectInputError(r, /policy\.yaml:7\b/, /common_valid_tasks/);
  });

  it("an expired policy with on_expired: fail stops the run, naming owner and revisit date", async () => {
    const policy = DEFAULT_POLICY.replace("on_expired: warn", "on_expired: fail").replace(
      "2027-03-31",
      "2026-01-31",
    );
    const r = await evaluateWith({ policy });
    expectInputError(r, /2026-01-31/, /@acme\/eval-owners/);
  });

  it("an expired policy with on_expired: warn keeps the verdict and warns", async () => {
    const policy = DEFAULT_POLICY.replace("2027-03-31", "2026-01-31");
    const r = await evaluateWith({ policy }, ["--format", "json"]);
    expect(r.code).toBeLessThan(3);
    const report = JSON.parse(r.stdout) as { warnings: string[] };
    expect(report.warnings.join("\n")).toMatch(/2026-01-31/);
  });

  it("a results file that does not exist", async () => {
    const dir = tempDir();
    const r = await cliInProcess([
      "evaluate",
      "--results",
      join(dir, "nope.jsonl"),
      "--policy",
      writePolicy(dir),
      "--baseline",
      BASELINE,
      "--candidate",
      CANDIDATE,
    ]);
    expectInputError(r, /nope\.jsonl/);
  });

  it.each([
    [["evaluate", "--bogus"], /Unknown flag "--bogus"/],
    [["evaluate", "--results"], /--results needs a value/],
    [["evaluate", "--format", "xml"], /--format must be one of markdown, json/],
    [["frobnicate"], /Unknown command "frobnicate"/],
    [["evaluate", "--results", "a.jsonl", "--policy", "p.yaml", "--baseline", "b"], /Missing --candidate/],
    [
      [
        "evaluate",
        "--results",
        "a",
        "--today",
        "tomorrow",
        "--policy",
        "p",
        "--baseline",
        "b",
        "--candidate",
        "c",
      ],
      /--today must be YYYY-MM-DD/,
    ],
  ])("usage error %j", async (argv, message) => {
    expectInputError(await cliInProcess(argv), message);
  });

  it("the bundle gives the same exit status and message as the source", async () => {
    const argv = ["evaluate", "--bogus"];
    const src = await cliInProcess(argv);
    const bundle = cliBundle(argv);
    expect(bundle.code).toBe(3);
    expect(bundle.stderr).toBe(src.stderr);
  });
});

describe("help and version", () => {
  it("--help documents every flag", async () => {
    const r = await cliInProcess(["evaluate", "--help"]);
    expect(r.code).toBe(0);
    for (const flag of [
      "--results",
      "--reviews",
      "--policy",
      "--baseline",
      "--candidate",
      "--canary",
      "--format",
      "--report",
      "--today",
    ]) {
      expect(r.stdout).toContain(flag);
    }
  });

  it("--help says a failed canary rejects whatever the policy says (SPEC §4.3)", async () => {
    const r = await cliInProcess(["evaluate", "--help"]);
    expect(r.stdout).toContain(
      "  --canary pass|fail      result of the production canary: fail rejects, whatever the policy\n" +
        "                          says; a policy with production_canary: passes needs pass.\n",
    );
  });

  it("--version prints the package version", async () => {
    const { version } = (await import("../../package.json", { with: { type: "json" } })).default;
    const r = await cliInProcess(["--version"]);
    expect(r.stdout).toBe(`${version}\n`);
  });
});
