/**
 * The policy's regressions: one test (or a few) per bug the hardening work found in reading the
 * policy file and fixed; each failed before its fix. Run in-process against the source.
 */
import { describe, expect, it } from "vitest";

import { InputError } from "../../../src/core/errors.js";
import { parsePolicy } from "../../../src/core/policy/load-policy.js";
import { cliInProcess } from "../../helpers/run-cli.js";
import { evaluateArgs, jsonl, pairRows, useScratch } from "../helpers.js";

const scratch = useScratch("gate-fixes-");

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
