/**
 * MODEL_GATE_READ_RANGES and MODEL_GATE_PARSE_THREADS chose how earlier builds read large exports
 * (src/read/retired-read-settings.ts). Set now, they change nothing, and the debug output says so.
 */
import { describe, expect, it } from "vitest";

import { retiredReadSettingNotes } from "../../src/read/retired-read-settings.js";
import { cliBundle } from "../helpers/run-cli.js";

const RANGES_NOTE =
  "MODEL_GATE_READ_RANGES is no longer read (reading in byte ranges was removed: it did not pay on two cores); reading as without it";
const PARSE_NOTE =
  "MODEL_GATE_PARSE_THREADS is no longer read (the parse pool was removed: it cost more than it saved); reading as without it";

describe("retiredReadSettingNotes", () => {
  it("gives one note for each retired setting given a value, whatever the value", () => {
    for (const value of ["0", "1", "2", "8", "two"]) {
      expect(retiredReadSettingNotes({ MODEL_GATE_READ_RANGES: value })).toStrictEqual([RANGES_NOTE]);
      expect(retiredReadSettingNotes({ MODEL_GATE_PARSE_THREADS: value })).toStrictEqual([PARSE_NOTE]);
    }
    expect(
      retiredReadSettingNotes({ MODEL_GATE_PARSE_THREADS: "4", MODEL_GATE_READ_RANGES: "2" }),
    ).toStrictEqual([RANGES_NOTE, PARSE_NOTE]);
  });

  it("gives none when they are unset or empty", () => {
    expect(retiredReadSettingNotes({})).toStrictEqual([]);
    expect(
      retiredReadSettingNotes({ MODEL_GATE_READ_RANGES: "", MODEL_GATE_PARSE_THREADS: "" }),
    ).toStrictEqual([]);
    expect(retiredReadSettingNotes({ MODEL_GATE_DEBUG: "1" })).toStrictEqual([]);
  });
});

describe("dist/cli.js with a retired setting", () => {
  const evaluate = (env: Record<string, string>): ReturnType<typeof cliBundle> =>
    cliBundle(
      [
        ...["evaluate", "--results", "examples/results.jsonl.gz", "--reviews", "examples/reviews.jsonl"],
        ...["--policy", "policy.example.yaml", "--baseline", "cfg-baseline", "--candidate", "cfg-candidate"],
        ...["--canary", "pass", "--today", "2026-11-29", "--format", "json"],
      ],
      new URL("../..", import.meta.url).pathname,
      { MODEL_GATE_READ_RANGES: "", MODEL_GATE_PARSE_THREADS: "", ...env },
    );

  it("says in its debug output that it is no longer read, and prints the same report with the same exit status", () => {
    const unset = evaluate({ MODEL_GATE_DEBUG: "1" });
    const set = evaluate({
      MODEL_GATE_DEBUG: "1",
      MODEL_GATE_READ_RANGES: "2",
      MODEL_GATE_PARSE_THREADS: "1",
    });
    expect(set.stderr).toContain(`model-gate: debug: ${RANGES_NOTE}\n`);
    expect(set.stderr).toContain(`model-gate: debug: ${PARSE_NOTE}\n`);
    expect(unset.stderr).not.toContain("no longer read");
    expect([0, 1, 2]).toContain(set.code);
    expect(set.code).toBe(unset.code);
    expect(set.stdout.length).toBeGreaterThan(1000);
    expect(set.stdout).toBe(unset.stdout);
    // Without MODEL_GATE_DEBUG, nothing is said.
    expect(evaluate({ MODEL_GATE_READ_RANGES: "2" }).stderr).toBe("");
  });
});
