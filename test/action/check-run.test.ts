import { describe, expect, it } from "vitest";
import { conclusionFor, publishCheckRun } from "../../src/action/check-run.js";
import { createRecordingLogger, type RecordingLogger } from "../../src/action/logger.js";
import { malformedAnswers } from "./fake-github.js";
import {
  CHECK_SHA,
  checkRunSpec,
  DELIVERED_NOTE,
  fastRetry,
  octokitFor,
  policyAnnotations,
  useSharedFakeGitHub,
  warnings,
} from "./helpers.js";

const shared = useSharedFakeGitHub("gate-check-run-");

function deps(log: RecordingLogger = createRecordingLogger(), fork = false) {
  return {
    octokit: octokitFor(shared.fake, undefined, log),
    retry: fastRetry(),
    log,
    fork,
    delivered: DELIVERED_NOTE,
  };
}

describe("conclusionFor", () => {
  it("maps verdicts to check conclusions, unresolved per on_unresolved", () => {
    expect(conclusionFor("accept", "fail")).toBe("success");
    expect(conclusionFor("reject", "neutral")).toBe("failure");
    expect(conclusionFor("unresolved", "fail")).toBe("failure");
    expect(conclusionFor("unresolved", "neutral")).toBe("neutral");
  });
});

describe("publishCheckRun", () => {
  it("creates a completed check run on the given commit", async () => {
    const log = createRecordingLogger();
    const id = await publishCheckRun(checkRunSpec(), deps(log));
    const run = shared.fake.checkRuns.find((r) => r.id === id);
    expect(run).toMatchObject({
      head_sha: CHECK_SHA,
      status: "completed",
      conclusion: "success",
      name: "Model gate",
    });
    expect(run?.output).toEqual({ title: "Accept", summary: "## accept", text: null });
    expect(log.lines.filter((l) => l.level === "warning")).toEqual([]);
  });

  it("sends 120 annotations as 50 + 50 + 20 across one create and two updates", async () => {
    const annotations = policyAnnotations(120);
    const id = await publishCheckRun(checkRunSpec({ annotations }), deps());
    expect(shared.fake.calls()).toEqual(["POST checks/create", "PATCH checks/update", "PATCH checks/update"]);
    const run = shared.fake.checkRuns.find((r) => r.id === id);
    expect(run?.annotations.map((a) => a.start_line)).toEqual(Array.from({ length: 120 }, (_, i) => i + 1));
    expect(run?.annotationRequests).toBe(3);
    expect(run?.conclusion).toBe("success");
  });

  it("cuts an over-long summary to GitHub's 65,535 characters with a note", async () => {
    const id = await publishCheckRun(checkRunSpec({ summary: "x".repeat(70_000) }), deps());
    const summary = shared.fake.checkRuns.find((r) => r.id === id)?.output.summary ?? "";
    expect(summary.length).toBeLessThanOrEqual(65_535);
    expect(summary.endsWith("\n\n… (trimmed)\n")).toBe(true);
  });

  it("on 403 from a fork warns which permission is missing and returns null", async () => {
    shared.fake.fail("checks/create", { status: 403 });
    const log = createRecordingLogger();
    const id = await publishCheckRun(checkRunSpec(), deps(log, true));
    expect(id).toBeNull();
    expect(log.lines.filter((l) => l.level === "warning").map((l) => l.message)).toEqual([
      'Could not create the check run "Model gate": GitHub answered 403 (Resource not accessible by integration). ' +
        "This pull request comes from a fork, and GitHub gives workflows on fork pull requests a read-only token: " +
        "the job needs `permissions: checks: write` (not granted to forks). The verdict is in the job summary and the step outputs.",
    ]);
  });

  it("retries 5xx and succeeds, each failed try in the debug log, no warning", async () => {
    shared.fake.fail("checks/create", { status: 502, times: 2 });
    const log = createRecordingLogger();
    const id = await publishCheckRun(checkRunSpec(), deps(log));
    expect(id).toBe(shared.fake.checkRuns.at(-1)?.id);
    expect(shared.fake.requests.map((r) => r.status)).toEqual([502, 502, 201]);
    expect(log.lines.filter((l) => l.level === "debug").map((l) => l.message)).toEqual([
      "POST /repos/{owner}/{repo}/check-runs: GitHub answered 502 (Server Error) on try 1",
      "POST /repos/{owner}/{repo}/check-runs: GitHub answered 502 (Server Error) on try 2",
    ]);
    expect(warnings(log)).toEqual([]);
  });

  it("gives up after 3 tries of 5xx with one warning", async () => {
    shared.fake.fail("checks/create", { status: 503 });
    const log = createRecordingLogger();
    const id = await publishCheckRun(checkRunSpec(), deps(log));
    expect(id).toBeNull();
    expect(shared.fake.requests.length).toBe(3);
    expect(log.lines.filter((l) => l.level === "warning").map((l) => l.message)).toEqual([
      'Could not create the check run "Model gate": GitHub answered 503 (Server Error) 3 times; giving up. ' +
        "The verdict is in the job summary and the step outputs.",
    ]);
  });

  it("on 422 warns with GitHub's message and does not retry", async () => {
    shared.fake.fail("checks/create", { status: 422, message: "No commit found for SHA: cccc" });
    const log = createRecordingLogger();
    expect(await publishCheckRun(checkRunSpec(), deps(log))).toBeNull();
    expect(shared.fake.requests.length).toBe(1);
    expect(log.lines.find((l) => l.level === "warning")?.message).toBe(
      'Could not create the check run "Model gate": GitHub rejected the request with 422 (No commit found for SHA: cccc).',
    );
  });

  it("on 404 warns and names the permission", async () => {
    shared.fake.fail("checks/create", { status: 404 });
    const log = createRecordingLogger();
    expect(await publishCheckRun(checkRunSpec(), deps(log))).toBeNull();
    expect(log.lines.find((l) => l.level === "warning")?.message).toBe(
      'Could not create the check run "Model gate": GitHub answered 404 (Not Found). Check the repository, the pull ' +
        "request and that the token can see them (it needs `checks: write`).",
    );
  });

  // Was: a 201 whose body was not a check run was taken as success: "(id undefined)" in the log
  // and the check-run-id output "undefined".
  it.each(malformedAnswers(201))(
    "a 201 with %s: one warning, no retry, null (the check-run-id output stays empty)",
    async (_name, fault) => {
      shared.fake.fail("checks/create", fault);
      const log = createRecordingLogger();
      expect(await publishCheckRun(checkRunSpec(), deps(log))).toBeNull();
      expect(shared.fake.calls()).toEqual(["POST checks/create"]);
      expect(warnings(log)).toHaveLength(1);
      expect(warnings(log)[0]).toMatch(
        /^Could not create the check run "Model gate": GitHub answered 201 with (an HTML page instead of JSON|a body that is not JSON \((application\/json|text\/plain)\)|JSON of the wrong shape \((null|an array)\)|JSON that lacks a usable `id`); the answer is not used\. The verdict is in the job summary and the step outputs\.$/,
      );
    },
  );

  it("a 200 with an HTML page on the update that adds annotations: one warning; the run's id is kept", async () => {
    const [, html] = malformedAnswers(200)[0] ?? [];
    if (html === undefined) throw new Error("no HTML answer");
    shared.fake.fail("checks/update", html);
    const log = createRecordingLogger();
    const annotations = policyAnnotations(60);
    const id = await publishCheckRun(checkRunSpec({ annotations }), deps(log));
    expect(id).toBe(shared.fake.checkRuns.at(-1)?.id);
    expect(warnings(log)).toEqual([
      "Could not add annotations 51–60 to the check run: GitHub answered 200 with an HTML page instead of JSON; " +
        "the answer is not used. The verdict is in the job summary and the step outputs.",
    ]);
  });
});
