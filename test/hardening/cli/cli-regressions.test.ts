/**
 * The CLI's regressions: one test (or a few) per bug the hardening work found in the CLI's
 * messages and report file and fixed; each failed before its fix. Run in-process against the
 * source.
 */
import { describe, expect, it } from "vitest";

import { cliInProcess } from "../../helpers/run-cli.js";
import { evaluateArgs, jsonl, pairRows, useScratch } from "../helpers.js";

const scratch = useScratch("gate-fixes-");

describe("fix: CLI error messages could start a workflow command line (`::error::`, `::set-output`)", () => {
  const policyFile = (text: string) => scratch.write(text, "policy.yaml");
  const run = (policy: string) => cliInProcess(evaluateArgs([scratch.write(jsonl(pairRows(2)))], policy));

  it("a policy key with a line break, quoted in the message, cannot start a line with ::", async () => {
    const r = await run(
      policyFile(
        'owner: x\nrevisit: 2027-01-01\n"\\n::error::pwned": 1\n"\\n::set-output name=verdict::accept": 2\n',
      ),
    );
    expect(r.code).toBe(3);
    expect(r.stderr.split("\n").filter((l) => l.trimStart().startsWith("::"))).toEqual([]);
    // The line break stays (the message is one problem per line), but the line is escaped.
    expect(r.stderr).toContain('field "\n\\::error::pwned": unknown key "\n\\::error::pwned"');
  });

  it("an owner with a line break and a bidi override, named by on_expired: fail, is escaped and visible", async () => {
    const r = await run(
      policyFile(
        'owner: "x\\n::error::pwned\\u202e"\nrevisit: 2020-01-01\non_expired: fail\naccept_if:\n  common_valid_tasks: ">= 1"\n  infra_error_rate: "< 1%"\n  disputed_fraction: "< 5%"\n  observed_margin: "> validity_sensitivity + run_variance"\n',
      ),
    );
    expect(r.code).toBe(3);
    expect(r.stderr).toBe(
      `model-gate: ${scratch.path("policy.yaml")}: the policy expired on 2020-01-01 (today is 2026-11-29) and says on_expired: fail. Its owner x\n\\::error::pwned\\u{202E} must re-examine the thresholds and set a new revisit date.\n`,
    );
  });
});

describe("fix: a --report path that cannot be written was an 'internal error' (exit 4)", () => {
  const args = (report: string) =>
    evaluateArgs(
      [scratch.write(jsonl(pairRows(2)))],
      scratch.write(
        'owner: x\nrevisit: 2027-01-01\naccept_if:\n  common_valid_tasks: ">= 1"\n  infra_error_rate: "< 1%"\n  disputed_fraction: "< 5%"\n  observed_margin: "> validity_sensitivity + run_variance"\n',
        "policy.yaml",
      ),
      ["--report", report],
    );

  it("a report in a directory that does not exist is a user error, exit 3", async () => {
    const r = await cliInProcess(args(scratch.path("no/such/dir/report.json")));
    expect([r.code, r.stdout, r.stderr]).toEqual([
      3,
      "",
      `model-gate: Cannot write the report file ${scratch.path("no/such/dir/report.json")}: its directory does not exist. No report file was written or changed.\n`,
    ]);
  });

  it("a report path that is a directory is a user error, exit 3, and no temporary file is left", async () => {
    const { mkdirSync, readdirSync } = await import("node:fs");
    const dir = scratch.path("report-dir");
    mkdirSync(dir);
    const argv = args(dir);
    const before = readdirSync(scratch.dir).sort();
    const r = await cliInProcess(argv);
    expect([r.code, r.stderr]).toEqual([
      3,
      `model-gate: Refusing to write --report ${dir}: it is a directory; only a regular file is replaced. Nothing was read or written.\n`,
    ]);
    expect(readdirSync(scratch.dir).sort()).toEqual(before);
    expect(readdirSync(dir)).toEqual([]);
  });
});
