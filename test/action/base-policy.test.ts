import { describe, expect, it } from "vitest";
import { loadBasePolicy, type BasePolicyDeps, type BasePolicyRequest } from "../../src/action/base-policy.js";
import { runGit } from "../../src/git/run-git.js";
import { createRecordingLogger, type Logger } from "../../src/action/logger.js";
import { InputError } from "../../src/core/errors.js";
import { malformedAnswers } from "./fake-github.js";
import { commitFiles, initRepo, octokitFor, useSharedFakeGitHub } from "./helpers.js";

const shared = useSharedFakeGitHub("gate-base-policy-");

const BASE = "1".repeat(40);
const LAST = "2".repeat(40);

function req(over: Partial<BasePolicyRequest> = {}): BasePolicyRequest {
  return {
    owner: "acme",
    repo: "models",
    baseSha: BASE,
    path: "gate/policy.yaml",
    workspace: shared.tempDir(),
    ...over,
  };
}

/** The fake GitHub's Octokit and the real git. */
function withFake(log: Logger = createRecordingLogger()): BasePolicyDeps {
  return { octokit: octokitFor(shared.fake), git: runGit, log };
}

describe("loadBasePolicy", () => {
  it("reads the policy at the base commit with the contents API, and its last commit", async () => {
    shared.fake.setFile(BASE, "gate/policy.yaml", "owner: base\n");
    shared.fake.setCommits(BASE, "gate/policy.yaml", [LAST, "3".repeat(40)]);
    const policy = await loadBasePolicy(req(), withFake());
    expect(policy).toEqual({
      text: "owner: base\n",
      source: `base commit ${BASE} (contents API)`,
      lastCommit: LAST,
    });
    expect(shared.fake.requests.map((r) => [r.operationId, r.query])).toEqual([
      ["repos/get-content", { ref: BASE }],
      ["repos/list-commits", { path: "gate/policy.yaml", sha: BASE, per_page: "1" }],
    ]);
  });

  it("refuses a policy that does not exist at the base commit (new file in the PR)", async () => {
    const error = await loadBasePolicy(req({ baseSha: "4".repeat(40) }), withFake()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toContain(
      "The policy gate/policy.yaml does not exist at the pull request's base commit 444444444444. On a pull request the base branch's policy decides",
    );
  });

  it("falls back to git show and git log when the API keeps failing and the checkout has the commit", async () => {
    const ws = shared.tempDir();
    initRepo(ws);
    const first = commitFiles(ws, { "gate/policy.yaml": "owner: from-git\n" }, "add policy");
    const base = commitFiles(ws, { "README.md": "readme\n" }, "unrelated");
    shared.fake.fail("repos/get-content", { status: 503 });
    shared.fake.fail("repos/list-commits", { status: 503 });
    const log = createRecordingLogger();
    const policy = await loadBasePolicy(req({ baseSha: base, workspace: ws }), withFake(log));
    expect(policy).toEqual({
      text: "owner: from-git\n",
      source: `base commit ${base} (git)`,
      lastCommit: first,
    });
    expect(shared.fake.requests.map((r) => r.status)).toEqual([503, 503, 503, 503, 503, 503]);
  });

  it("uses git without a token at all", async () => {
    const ws = shared.tempDir();
    initRepo(ws);
    const base = commitFiles(ws, { "gate/policy.yaml": "owner: no-token\n" });
    const policy = await loadBasePolicy(req({ baseSha: base, workspace: ws }), {
      octokit: null,
      git: runGit,
      log: createRecordingLogger(),
    });
    expect(policy).toEqual({
      text: "owner: no-token\n",
      source: `base commit ${base} (git)`,
      lastCommit: base,
    });
  });

  it("says what to grant when neither the API nor the checkout can answer", async () => {
    shared.fake.fail("repos/get-content", { status: 403 });
    const error = await loadBasePolicy(req(), withFake()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toBe(
      "Cannot read the policy gate/policy.yaml at the pull request's base commit 111111111111, and the PR's own copy must not decide. " +
        `contents API: 403 Resource not accessible by integration; git: the checkout does not have commit ${BASE}. ` +
        "Grant the job `permissions: contents: read` (and pass github-token), or check out with fetch-depth: 0.",
    );
  });

  // Was: an HTML page answered 200 was read as "gate/policy.yaml is a directory at the base commit".
  it.each(malformedAnswers(200))(
    "the contents API answering %s: an error saying so, not a guess; the PR's copy does not decide",
    async (_name, fault) => {
      shared.fake.fail("repos/get-content", fault);
      const error = await loadBasePolicy(req(), withFake()).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InputError);
      expect((error as Error).message).toMatch(
        new RegExp(
          "^Cannot read the policy gate/policy\\.yaml at the pull request's base commit 111111111111, and the PR's own copy must not decide\\. " +
            "contents API: GitHub answered 200 with .*; git: the checkout does not have commit 1{40}\\. " +
            "GitHub's answer could not be used: re-run the job, or check out with fetch-depth: 0 so that git can answer\\.$",
        ),
      );
      expect(shared.fake.calls()).toEqual(["GET repos/get-content"]);
    },
  );

  it.each(malformedAnswers(200))(
    "the commits API answering %s: the last commit from git log instead, no warning",
    async (_name, fault) => {
      const ws = shared.tempDir();
      initRepo(ws);
      const first = commitFiles(ws, { "gate/policy.yaml": "owner: base\n" }, "add policy");
      const base = commitFiles(ws, { "README.md": "readme\n" }, "unrelated");
      shared.fake.setFile(base, "gate/policy.yaml", "owner: base\n");
      shared.fake.fail("repos/list-commits", fault);
      const log = createRecordingLogger();
      const policy = await loadBasePolicy(req({ baseSha: base, workspace: ws }), withFake(log));
      expect(policy.lastCommit).toBe(first);
      expect(log.lines.filter((l) => l.level === "warning")).toEqual([]);
    },
  );
});
