/**
 * The policy log's rules, on versions built by hand (no git): each flag, its edge cases, and the
 * comparison chain across versions that do not parse or are deleted.
 */
import { describe, expect, it } from "vitest";
import {
  buildPolicyLog,
  changeFlags,
  type PolicyLogOptions,
  type PolicyVersion,
  utcDay,
} from "../../src/core/history/policy-log.js";
import { policyText } from "./policy-repo.js";

let n = 0;
function version(over: Partial<PolicyVersion> & { readonly day: string }): PolicyVersion {
  n++;
  const { day, ...rest } = over;
  return {
    commit: String(n).padStart(40, "0"),
    author: "Test",
    date: `${day}T12:00:00+00:00`,
    committed: `${day}T12:00:00+00:00`,
    subject: `change ${n}`,
    path: "gate/policy.yaml",
    previous_path: null,
    status: "modified",
    text: policyText(),
    otherFiles: [],
    ...rest,
  };
}

const OPTS: PolicyLogOptions = {
  path: "gate/policy.yaml",
  since: null,
  baseline: null,
  truncated: false,
  today: "2026-01-10",
  isEvidenceFile: (p) => p.endsWith(".jsonl"),
};

function flagsOf(versions: readonly PolicyVersion[], opts: Partial<PolicyLogOptions> = {}): string[][] {
  return buildPolicyLog(versions, { ...OPTS, ...opts }).entries.map((e) => [...e.flags]);
}

describe("snoozed: the revisit date moved later with no threshold re-examined", () => {
  it("a later revisit alone is a loosening and a snooze", () => {
    const log = buildPolicyLog(
      [
        version({ day: "2026-01-01", status: "added" }),
        version({ day: "2026-01-02", text: policyText({ revisit: "2026-06-30" }) }),
      ],
      OPTS,
    );
    expect(log.entries[1]?.flags).toEqual(["loosening", "snoozed"]);
    expect(log.entries[1]?.changes).toEqual([
      { key: "revisit", base: "2026-03-31", head: "2026-06-30", loosening: true },
    ]);
  });

  it("with a threshold changed in the same commit (tightened or loosened) it is no snooze", () => {
    expect(
      changeFlags([
        { key: "revisit", base: "2026-03-31", head: "2026-06-30", loosening: true },
        { key: "accept_if.common_valid_tasks", base: ">= 300", head: ">= 400", loosening: false },
      ]),
    ).toEqual(["loosening"]);
    expect(
      changeFlags([
        { key: "revisit", base: "2026-03-31", head: "2026-06-30", loosening: true },
        { key: "margin.confidence", base: "0.95", head: "0.975", loosening: false },
      ]),
    ).toEqual(["loosening"]);
  });

  it("with only non-threshold rules changed beside it (owner, on_expired, margin.power) it still is one", () => {
    expect(
      changeFlags([
        { key: "owner", base: "a", head: "b", loosening: false },
        { key: "revisit", base: "2026-03-31", head: "2026-06-30", loosening: true },
        { key: "on_expired", base: "fail", head: "warn", loosening: true },
        { key: "margin.power", base: "0.8", head: "0.9", loosening: false },
      ]),
    ).toEqual(["loosening", "snoozed", "owner_changed"]);
  });

  it("an earlier revisit is neither a loosening nor a snooze", () => {
    expect(
      changeFlags([{ key: "revisit", base: "2026-06-30", head: "2026-03-31", loosening: false }]),
    ).toEqual([]);
  });
});

describe("expired: the revisit date passed before the next change", () => {
  const at = (nextDay: string, committed?: string): string[][] =>
    flagsOf([
      version({ day: "2026-01-01", status: "added", text: policyText({ revisit: "2026-02-01" }) }),
      version({
        day: nextDay,
        text: policyText({ revisit: "2026-12-31" }),
        ...(committed ? { committed } : {}),
      }),
    ]);

  it("a next change on the revisit day itself: the policy still held (as isExpired)", () => {
    expect(at("2026-02-01")[0]).toEqual([]);
  });

  it("a next change the day after: expired, until that day", () => {
    const log = buildPolicyLog(
      [
        version({ day: "2026-01-01", status: "added", text: policyText({ revisit: "2026-02-01" }) }),
        version({ day: "2026-02-02", text: policyText({ revisit: "2026-12-31" }) }),
      ],
      OPTS,
    );
    expect(log.entries[0]?.flags).toEqual(["expired"]);
    expect(log.entries[0]?.expired).toEqual({ revisit: "2026-02-01", until: "2026-02-02" });
    expect(log.counts.expired).toBe(1);
  });

  it("the next change is dated by its commit date as a UTC day, not the author's date or clock", () => {
    // 00:30 at +02:00 on Feb 2 is Feb 1 in UTC: still the revisit day.
    expect(at("2026-03-15", "2026-02-02T00:30:00+02:00")[0]).toEqual([]);
    expect(at("2026-01-15", "2026-02-02T00:30:00+00:00")[0]).toEqual(["expired"]);
    expect(utcDay("2026-02-02T00:30:00+02:00")).toBe("2026-02-01");
    expect(utcDay("2026-02-01T23:30:00-02:00")).toBe("2026-02-02");
  });

  it("the version still in force is checked against today: on the day it holds, the day after it is expired", () => {
    const last = (today: string): ReturnType<typeof buildPolicyLog> =>
      buildPolicyLog(
        [version({ day: "2026-01-01", status: "added", text: policyText({ revisit: "2026-01-10" }) })],
        {
          ...OPTS,
          today,
        },
      );
    expect(last("2026-01-10").entries[0]?.expired).toBeNull();
    expect(last("2026-01-11").entries[0]?.expired).toEqual({ revisit: "2026-01-10", until: null });
    expect(last("2026-01-11").entries[0]?.flags).toEqual(["expired"]);
  });

  it("a version that does not parse has no expiry", () => {
    expect(
      flagsOf([version({ day: "2026-01-01", status: "added", text: "owner: [" })], { today: "2099-01-01" }),
    ).toEqual([["unparsable"]]);
  });
});

describe("owner_changed, with_evidence, unparsable", () => {
  it("an owner change is flagged, not marked as a loosening", () => {
    const log = buildPolicyLog(
      [
        version({ day: "2026-01-01", status: "added" }),
        version({ day: "2026-01-02", text: policyText({ owner: "@acme/other" }) }),
      ],
      OPTS,
    );
    expect(log.entries[1]?.flags).toEqual(["owner_changed"]);
    expect(log.entries[1]?.changes).toEqual([
      { key: "owner", base: "@acme/eval-owners", head: "@acme/other", loosening: false },
    ]);
    expect(log.entries[1]?.owner).toBe("@acme/other");
  });

  it("results or reviews in the same commit: listed (at most 10), counted exactly; other files are not evidence", () => {
    const files = Array.from({ length: 12 }, (_, i) => `results/r${String(i).padStart(2, "0")}.jsonl`);
    const log = buildPolicyLog(
      [version({ day: "2026-01-01", status: "added", otherFiles: ["README.md", ...files] })],
      OPTS,
    );
    expect(log.entries[0]?.flags).toEqual(["with_evidence"]);
    expect(log.entries[0]?.evidence_files).toEqual(files.slice(0, 10));
    expect(log.entries[0]?.evidence_files_total).toBe(12);
    expect(flagsOf([version({ day: "2026-01-01", status: "added", otherFiles: ["README.md"] })])).toEqual([
      [],
    ]);
  });

  it("a version that does not parse is listed with why, and the next one is compared with the last that did", () => {
    const a = version({ day: "2026-01-01", status: "added" });
    const bad = version({ day: "2026-01-02", text: "owner: [\n" });
    const c = version({ day: "2026-01-03", text: policyText({ minTasks: 100 }) });
    const log = buildPolicyLog([a, bad, c], OPTS);
    expect(log.entries[1]).toMatchObject({
      flags: ["unparsable"],
      changes: [],
      compared_with: null,
      owner: null,
      revisit: null,
    });
    expect(log.entries[1]?.parse_error).toMatch(/^gate\/policy\.yaml:1:\d+: /);
    expect(log.entries[2]?.compared_with).toBe(a.commit);
    expect(log.entries[2]?.flags).toEqual(["loosening"]);
    expect(log.counts).toEqual({
      commits: 3,
      loosening: 1,
      snoozed: 0,
      owner_changed: 0,
      expired: 0,
      with_evidence: 0,
      unparsable: 1,
    });
  });

  it("text that could not be read (not UTF-8, too large) is unparsable with the reader's reason", () => {
    const log = buildPolicyLog(
      [
        version({
          day: "2026-01-01",
          status: "added",
          text: null,
          textError: "gate/policy.yaml:2: not UTF-8",
        }),
      ],
      OPTS,
    );
    expect(log.entries[0]).toMatchObject({
      flags: ["unparsable"],
      parse_error: "gate/policy.yaml:2: not UTF-8",
    });
  });

  it("a deletion ends the chain: a re-added file is a first version, not a change", () => {
    const log = buildPolicyLog(
      [
        version({ day: "2026-01-01", status: "added" }),
        version({ day: "2026-01-02", status: "deleted", text: null }),
        version({ day: "2026-01-03", status: "added", text: policyText({ minTasks: 10 }) }),
      ],
      OPTS,
    );
    expect(log.entries.map((e) => [e.status, e.flags, e.compared_with, e.parse_error])).toEqual([
      ["added", [], null, null],
      ["deleted", [], null, null],
      ["added", [], null, null],
    ]);
  });
});

describe("the baseline", () => {
  it("the first entry after --since is compared with the version there", () => {
    const log = buildPolicyLog([version({ day: "2026-01-05", text: policyText({ minTasks: 10 }) })], {
      ...OPTS,
      since: "v1",
      baseline: { commit: "f".repeat(40), text: policyText(), path: "gate/policy.yaml" },
    });
    expect(log.since).toBe("v1");
    expect(log.entries[0]?.compared_with).toBe("f".repeat(40));
    expect(log.entries[0]?.flags).toEqual(["loosening"]);
  });

  it("a baseline that does not parse or does not exist compares nothing", () => {
    for (const text of ["owner: [", null]) {
      const log = buildPolicyLog([version({ day: "2026-01-05", text: policyText({ minTasks: 10 }) })], {
        ...OPTS,
        baseline: { commit: "f".repeat(40), text, path: "gate/policy.yaml" },
      });
      expect(log.entries[0]).toMatchObject({ compared_with: null, changes: [], flags: [] });
    }
  });

  it("the same versions give the same log, byte for byte", () => {
    const vs = [
      version({ day: "2026-01-01", status: "added" }),
      version({ day: "2026-02-01", text: policyText({ revisit: "2026-09-30" }) }),
    ];
    expect(JSON.stringify(buildPolicyLog(vs, OPTS))).toBe(JSON.stringify(buildPolicyLog(vs, OPTS)));
  });
});
