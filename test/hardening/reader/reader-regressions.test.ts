/**
 * One regression test (or a few) per bug the hardening work found and fixed; each failed before
 * its fix (the fixes are in git history; RELIABILITY.md names the promises these hold). Run
 * in-process against the source.
 */
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";

import { InputError } from "../../src/core/errors.js";
import { parsePolicy } from "../../src/core/policy/load-policy.js";
import { cliInProcess } from "../helpers/run-cli.js";
import { BASE, CAND, evaluateArgs, file, jsonl, pairRows, readError, row, useScratch } from "./helpers.js";

const scratch = useScratch("gate-fixes-");

describe("fix: bytes after the gzip data were dropped in silence (or named 'ABORT_ERR')", () => {
  it("rows after a zero byte that follows the gzip data are not dropped in silence", async () => {
    // zlib stops at a byte after a member that does not start another member (Node takes a zero
    // byte for padding) and dropped the rest: these 6 rows were lost without an error.
    const tail = Buffer.from("\0" + jsonl(pairRows(3, { task_id: "late" })));
    const path = scratch.write(Buffer.concat([gzipSync(jsonl(pairRows(50))), tail]));
    const err = await readError({ results: [path], ...file("padded.jsonl.gz") });
    expect(err.message).toMatch(
      /^The results\/reviews input has 1 problem:\n {2}padded\.jsonl\.gz: the gzip data ends after \d+ of the file's \d+ bytes; the \d+ bytes after it are not gzip data \(zero padding, or something appended to the file\) and would be ignored: decompress the file and compress it again$/,
    );
  });

  it("a second gzip member after a zero byte is not dropped in silence either", async () => {
    const path = scratch.write(
      Buffer.concat([
        gzipSync(jsonl(pairRows(50))),
        Buffer.from([0]),
        gzipSync(jsonl(pairRows(2, { task_id: "x" }))),
      ]),
    );
    const err = await readError({ results: [path], ...file("two.jsonl.gz") });
    expect(err.message).toContain("two.jsonl.gz: the gzip data ends after");
  });

  it.each([1, 100, 300_000])(
    "zero padding of %i bytes after the gzip data gets the same clear message",
    async (n) => {
      // 300,000 bytes made zlib end its stream while the file went on: "cannot read the file (ABORT_ERR)".
      const path = scratch.write(Buffer.concat([gzipSync(jsonl(pairRows(5))), Buffer.alloc(n)]));
      const err = await readError({ results: [path], ...file("zeros.jsonl.gz") });
      expect(err.message).toContain("zeros.jsonl.gz: the gzip data ends after");
      expect(err.message).toContain("zero padding");
    },
  );
});

describe("fix: attempt totals past 2^53 - 1 were rounded in silence", () => {
  it("pre-aggregated counts whose total passes 2^53 - 1 are refused, not rounded", async () => {
    // Two aggregates of 2^53 - 1 passes gave passes = 18014398509481984 (2 short of the truth).
    const agg = (harness: string) => ({
      ...row({ harness_revision: harness }),
      result: undefined,
      passes: Number.MAX_SAFE_INTEGER,
      fails: 0,
      infra_errors: 0,
      missing: 0,
    });
    const path = scratch.write(jsonl([agg("h1"), agg("h2"), row({ model_config: BASE, result: "fail" })]));
    const err = await readError({ results: [path], ...file("big.jsonl") });
    expect(err.message).toBe(
      "The results/reviews input has 1 problem:\n" +
        `  big.jsonl:2: the attempts of model_config "${CAND}" add up to more than 9007199254740991, the largest count held exactly; its figures would be altered; the rest of the input is not read`,
    );
  });
});

describe("fix: labels of one task were looked up by a linear scan, with no cap (quadratic time)", () => {
  it("60,000 distinct labels of one task stop at the 1,000-label cap at once (took 8 s, then a 8 MB report)", async () => {
    const rows = [row({ model_config: BASE, result: "fail" })];
    for (let i = 0; i < 60_000; i++) rows.push(row({ model_config: "noise", review_revision: i + 2 }));
    const path = scratch.write(jsonl([row(), ...rows]));
    const start = performance.now();
    const err = await readError({ results: [path], ...file("labels.jsonl") });
    expect(err.message).toBe(
      "The results/reviews input has 1 problem:\n" +
        '  labels.jsonl:1002: task "t-1" (dataset_revision "sha256:d1") has more than 1000 distinct (review_revision, validity) labels (the limit); the rest of the input is not read',
    );
    expect(performance.now() - start).toBeLessThan(3_000);
  });
});

describe("fix: no cap on distinct tasks, models or held text: a hostile export exhausted the heap", () => {
  it("a task over the cap is an input error naming its line (caps.test.ts tests each cap)", async () => {
    const rows = [row(), row({ model_config: BASE, result: "fail" })];
    for (let i = 0; i < 10; i++) rows.push(row({ task_id: `n-${i}`, model_config: "noise" }));
    const path = scratch.write(jsonl(rows));
    const err = await readError({ results: [path], limits: { maxTasks: 5 }, ...file("tasks.jsonl") });
    expect(err.message).toContain("tasks.jsonl:7: the export has more than 5 distinct tasks");
  });
});

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

describe("fix: a deeply nested policy overflowed the YAML composer's stack", () => {
  const head = "owner: x\nrevisit: 2027-01-01\naccept_if: ";
  it.each([
    ["30,000 [", head + "[".repeat(30_000) + "]".repeat(30_000) + "\n", 3, 27],
    ["30,000 - on one line", head + "\n" + "- ".repeat(30_000) + "x\n", 4, 31],
    ["30,000 ? on one line", head + "\n" + "? ".repeat(30_000) + "x\n", 4, 33],
  ])(
    "%s: one problem at the 17th level, not 'Maximum call stack size exceeded'",
    (_name, text, line, column) => {
      // Was: "YAML syntax error: Maximum call stack size exceeded" (a leaked RangeError).
      let error: unknown;
      try {
        parsePolicy(text, "deep.yaml");
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(InputError);
      expect((error as InputError).message).toBe(
        `Invalid policy file deep.yaml: 1 problem\n  deep.yaml:${line}:${column}: mappings and lists are nested more than 16 levels deep here; a policy needs 2 (e.g. accept_if: common_valid_tasks)`,
      );
    },
  );
});

describe("fix: a policy with bytes that are not UTF-8 was read with U+FFFD in their place", () => {
  it("is an error naming the line (the owner shown and the sha256 in the provenance would not match the file)", async () => {
    scratch.write(
      Buffer.concat([
        Buffer.from('revisit: 2027-01-01\nowner: "'),
        Buffer.from([0xff, 0xfe]),
        Buffer.from(
          '"\naccept_if:\n  common_valid_tasks: ">= 1"\n  infra_error_rate: "< 1%"\n  disputed_fraction: "< 5%"\n  observed_margin: "> validity_sensitivity + run_variance"\n',
        ),
      ]),
      "latin1.yaml",
    );
    const r = await cliInProcess(
      evaluateArgs([scratch.write(jsonl(pairRows(2)))], "latin1.yaml"),
      scratch.dir,
    );
    expect([r.code, r.stdout, r.stderr]).toEqual([
      3,
      "",
      "model-gate: Invalid policy file latin1.yaml: 1 problem\n  latin1.yaml:2: the file is not valid UTF-8 text; save it as UTF-8.\n",
    ]);
  });
});

describe("fix: NUL and other non-printable characters in a policy were accepted (YAML 1.2 forbids them)", () => {
  it("each is a problem naming its line and column", () => {
    let error: unknown;
    try {
      parsePolicy('owner: "a\u0000b"\nrevisit: 2027-01-01\nnote: "\u001b[31m"\n', "p.yaml");
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).message).toBe(
      "Invalid policy file p.yaml: 2 problems\n" +
        "  p.yaml:1:10: the character U+0000 is not allowed in YAML (only printable characters, tab and line breaks are); remove it\n" +
        "  p.yaml:3:8: the character U+001B is not allowed in YAML (only printable characters, tab and line breaks are); remove it",
    );
  });

  it("escaped forms (\\0 in a double-quoted string) stay allowed, as YAML 1.2 allows them", () => {
    const p = parsePolicy(
      'owner: "a\\0b"\nrevisit: 2027-01-01\naccept_if:\n  common_valid_tasks: ">= 1"\n  infra_error_rate: "< 1%"\n  disputed_fraction: "< 5%"\n  observed_margin: "> validity_sensitivity + run_variance"\n',
      "p.yaml",
    );
    expect(p.owner).toBe("a\u0000b");
  });
});
