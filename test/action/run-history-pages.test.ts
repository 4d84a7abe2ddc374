/**
 * The run history counts each check run once (docs/runs.md): GitHub answering the same page of
 * check runs again (a broken pagination) or listing one check run twice must not multiply the run
 * count. In process, the action's own Octokit against the fake GitHub.
 */
import { describe, expect, it } from "vitest";
import { externalId, listOwnCheckRuns } from "../../src/action/run-history.js";
import { createRecordingLogger } from "../../src/action/logger.js";
import { octokitFor, useSharedFakeGitHub, warnings } from "./helpers.js";

const shared = useSharedFakeGitHub("gate-run-pages-");
const SHA = "a".repeat(40);
const OTHER_SHA = "b".repeat(40);
const NAME = "Model acceptance gate";
const at = (ref: string) => ({ owner: "acme", repo: "models", ref, checkName: NAME });

/** `n` check runs of the gate on SHA, each with the action's record; their JSON as GitHub lists them. */
async function gateRuns(n: number, sha = SHA): Promise<unknown[]> {
  const octokit = octokitFor(shared.fake);
  for (let i = 0; i < n; i++)
    await octokit.rest.checks.create({
      owner: "acme",
      repo: "models",
      name: NAME,
      head_sha: sha,
      status: "completed",
      conclusion: "failure",
      external_id: externalId({ verdict: "unresolved", results: "0123456789abcdef", block: "f".repeat(32) }),
      output: { title: "Unresolved", summary: "s" },
    });
  const listed = await octokit.rest.checks.listForRef({
    owner: "acme",
    repo: "models",
    ref: sha,
    check_name: NAME,
    filter: "all",
    per_page: 100,
  });
  shared.fake.requests.splice(0);
  return listed.data.check_runs;
}

describe("each check run counted once", () => {
  it("the same page answered again and again: the listing stops, 3 runs, one warning", async () => {
    const runs = await gateRuns(3);
    // A broken Link/page: every page is page 1, and it claims far more runs than it lists.
    shared.fake.fail("checks/list-for-ref", {
      status: 200,
      body: { json: { total_count: 10001, check_runs: runs } },
    });
    const log = createRecordingLogger();
    const own = await listOwnCheckRuns({ octokit: octokitFor(shared.fake), log }, at(SHA));
    expect(own.map((r) => r.id)).toEqual([...new Set(own.map((r) => r.id))]);
    expect(own).toHaveLength(3);
    expect(shared.fake.requests.filter((r) => r.operationId === "checks/list-for-ref")).toHaveLength(2);
    expect(warnings(log)).toEqual([
      `GitHub answered page 2 of the check runs on ${SHA} with check runs already listed (a repeated page: ` +
        "its pagination is broken): the listing stops there, each check run counted once.",
    ]);
  });

  it("one check run listed twice on a page is one run", async () => {
    const runs = await gateRuns(2, OTHER_SHA);
    shared.fake.fail("checks/list-for-ref", {
      status: 200,
      body: { json: { total_count: 3, check_runs: [...runs, runs[0]] } },
      times: 1,
    });
    const log = createRecordingLogger();
    const own = await listOwnCheckRuns({ octokit: octokitFor(shared.fake), log }, at(OTHER_SHA));
    expect(own).toHaveLength(2);
    expect(new Set(own.map((r) => r.id)).size).toBe(2);
    expect(warnings(log)).toEqual([]);
  });
});
