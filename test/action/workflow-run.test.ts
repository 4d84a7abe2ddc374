/**
 * confirmWorkflowRunPullRequest (src/action/workflow-run.ts) against the fake GitHub: the pull
 * request GitHub answers decides which base policy applies, so an answer that is not a pull
 * request (an HTML page, garbage, JSON of another shape) is an input error, never a guess.
 */
import { describe, expect, it } from "vitest";
import { createRecordingLogger } from "../../src/action/logger.js";
import { confirmWorkflowRunPullRequest } from "../../src/action/workflow-run.js";
import { InputError } from "../../src/core/errors.js";
import { malformedAnswers } from "./fake-github.js";
import { octokitFor, useSharedFakeGitHub } from "./helpers.js";
import { BASE_SHA, HEAD_SHA, PR_NUMBER } from "./run-action.js";

const shared = useSharedFakeGitHub("gate-workflow-run-");

function confirm() {
  const log = createRecordingLogger();
  return {
    log,
    result: confirmWorkflowRunPullRequest(
      {
        owner: "acme",
        repo: "models",
        run: { headSha: HEAD_SHA, pullRequests: [PR_NUMBER] },
        input: null,
      },
      { octokit: octokitFor(shared.fake, undefined, log), log },
    ),
  };
}

describe("confirming the workflow_run's pull request", () => {
  it("GitHub's pull request at the run's commit: its base decides", async () => {
    shared.fake.setPullRequest(PR_NUMBER, { headSha: HEAD_SHA, baseSha: BASE_SHA });
    expect(await confirm().result).toEqual({
      number: PR_NUMBER,
      baseSha: BASE_SHA,
      headSha: HEAD_SHA,
      fork: false,
    });
  });

  it.each(malformedAnswers(200))(
    "the pull request answers %s: an input error saying so, asked once",
    async (_name, fault) => {
      shared.fake.setPullRequest(PR_NUMBER, { headSha: HEAD_SHA, baseSha: BASE_SHA });
      shared.fake.fail("pulls/get", fault);
      const error = await confirm().result.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InputError);
      expect((error as Error).message).toMatch(
        new RegExp(
          `^Cannot confirm pull request #${PR_NUMBER} for this workflow_run \\(GitHub answered 200 with ` +
            "(an HTML page instead of JSON|a body that is not JSON \\((application/json|text/plain)\\)|" +
            "JSON of the wrong shape \\((null|an array)\\)|JSON that lacks a usable `head`)\\), so it is not known " +
            "which base policy decides\\. Re-run the job; the token needs `pull-requests: read`\\.$",
        ),
      );
      expect(shared.fake.calls()).toEqual(["GET pulls/get"]);
    },
  );
});
