/**
 * The git shell of the policy log (src/git/policy-history.ts): the `git log -z` parser on records
 * a real repository does not easily produce, and the count limit on a real repository.
 */
import { afterAll, describe, expect, it } from "vitest";
import { LOG_FORMAT, parseLog, readPolicyHistory } from "../../src/git/policy-history.js";
import { buildRepo, removeTempDirs, STORY } from "./policy-repo.js";

afterAll(removeTempDirs);

const A = "a".repeat(40);
const B = "b".repeat(40);
const C = "c".repeat(40);

describe("parseLog", () => {
  it("reads NUL-separated records: a rename, a merge without name-status, subjects that look like statuses or headers", () => {
    expect(LOG_FORMAT).toBe("--format=%x01%H%x00%P%x00%an%x00%aI%x00%cI%x00%s");
    const out = [
      `\u0001${C}`,
      B,
      "Ann",
      "2026-01-03T00:00:00+00:00",
      "2026-01-03T01:00:00+00:00",
      "M",
      "\nR087",
      "old name.yaml",
      "new\nname.yaml",
      `\u0001${B}`,
      `${A} ${"d".repeat(40)}`,
      "Bo\u0001b",
      "2026-01-02T00:00:00+00:00",
      "2026-01-02T00:00:00+00:00",
      "Merge branch 'x'",
      `\n\u0001${A}`,
      "",
      "",
      "2026-01-01T00:00:00+00:00",
      "2026-01-01T00:00:00+00:00",
      "\u0001not a header",
      "\nA",
      "p.yaml",
      "",
    ].join("\u0000");
    expect(parseLog(out)).toEqual([
      {
        commit: C,
        parent: B,
        author: "Ann",
        date: "2026-01-03T00:00:00+00:00",
        committed: "2026-01-03T01:00:00+00:00",
        subject: "M",
        status: "R087",
        path: "new\nname.yaml",
        previousPath: "old name.yaml",
      },
      {
        commit: B,
        parent: A,
        author: "Bo\u0001b",
        date: "2026-01-02T00:00:00+00:00",
        committed: "2026-01-02T00:00:00+00:00",
        subject: "Merge branch 'x'",
        status: "",
        path: "",
        previousPath: null,
      },
      {
        commit: A,
        parent: null,
        author: "",
        date: "2026-01-01T00:00:00+00:00",
        committed: "2026-01-01T00:00:00+00:00",
        subject: "\u0001not a header",
        status: "A",
        path: "p.yaml",
        previousPath: null,
      },
    ]);
    expect(parseLog("")).toEqual([]);
  });
});

describe("readPolicyHistory with a count limit", () => {
  it("reads the newest `max` commits, the one before them as the baseline, and says it is truncated", async () => {
    const { dir, commits } = buildRepo(STORY);
    const h = await readPolicyHistory(dir, "policy/gate.yaml", { max: 3 });
    expect(h.truncated).toBe(true);
    expect(h.versions.map((v) => v.commit)).toEqual([commits[7], commits[8], commits[9]]);
    expect(h.baseline).toMatchObject({
      commit: commits[6],
      path: "gate/policy.yaml",
      text: "owner: [unclosed\n",
    });
    const all = await readPolicyHistory(dir, "policy/gate.yaml", { max: 9 });
    expect([all.truncated, all.baseline, all.versions.length]).toEqual([false, null, 9]);
  });
});
