// The action's rank mode in process (src/action/rank-mode.ts through the entry point's dispatch,
// src/action/gate-action.ts) against the loopback fake GitHub: one check run and one sticky comment
// under its own key, updated in place, an evaluate gate's comment left alone, the outputs exactly,
// the gate per the policy's rank.require, and clear input errors. The bundle runs in
// test/action/rank-bundle.test.ts.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { gitToFile } from "../../src/action/base-files.js";
import { createRecordingLogger, type RecordingLogger } from "../../src/action/logger.js";
import { runGateAction } from "../../src/action/gate-action.js";
import { rankCommentBody, rankMarkdown, type RankActionResult } from "../../src/action/rank-mode.js";
import { readHeader } from "../../src/action/sticky-comment.js";
import { InputError } from "../../src/core/errors.js";
import type { RankReport } from "../../src/core/rank/rank-types.js";
import { COMMENT_MARKER } from "../../src/core/report/escape.js";
import { COMMENT_BODY_MAX } from "../../src/core/report/github-limits.js";
import { runGit } from "../../src/git/run-git.js";
import {
  multiLines,
  policyWith,
  randomTasks,
  rankOf,
  writeMulti,
  type MultiTask,
} from "../rank/rank-helpers.js";
import { FakeGitHub } from "./fake-github.js";
import { commentBody, fastRetry, GATE_KEY, octokitAt } from "./helpers.js";
import { BASE_SHA, DEFAULT_BRANCH_SHA, eventPayload, HEAD_SHA, PR_NUMBER, PUSH_SHA } from "./run-action.js";

const POLICY_PATH = "gate/policy.yaml";
const RESULTS_PATH = "out/results.jsonl";
const LAST_POLICY_COMMIT = "9".repeat(40);
const MODELS = "cfg-a, cfg-b\ncfg-c";

/** 60 valid tasks: a passes 50, b 25, c 24 (b and c differ on 5): a on top, b and c tied. */
const CLEAR_TOP: MultiTask[] = Array.from({ length: 60 }, (_, i) => ({
  id: `t-${String(i).padStart(3, "0")}`,
  validity: "valid",
  results: {
    "cfg-a": [i < 50 ? "pass" : "fail"],
    "cfg-b": [i < 25 ? "pass" : "fail"],
    "cfg-c": [i >= 3 && i < 27 ? "pass" : "fail"],
  },
}));

/** 60 valid tasks: a and b pass 45 each (differing on 2), c 10: a tie at the top, both above c. */
const TIED_TOP: MultiTask[] = Array.from({ length: 60 }, (_, i) => ({
  id: `t-${String(i).padStart(3, "0")}`,
  validity: "valid",
  results: {
    "cfg-a": [i < 45 ? "pass" : "fail"],
    "cfg-b": [i >= 1 && i < 46 ? "pass" : "fail"],
    "cfg-c": [i < 10 ? "pass" : "fail"],
  },
}));

const open: FakeGitHub[] = [];
const dirs: string[] = [];
afterEach(async () => {
  const started = open.splice(0);
  for (const f of started) await f.close();
  for (const f of started) expect(f.violations).toEqual([]);
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function startFake(policy: string): Promise<FakeGitHub> {
  const f = await new FakeGitHub("acme/models").start();
  open.push(f);
  f.setFile(BASE_SHA, POLICY_PATH, policy);
  f.setCommits(BASE_SHA, POLICY_PATH, [LAST_POLICY_COMMIT]);
  return f;
}

interface Run {
  readonly result: RankActionResult | null;
  readonly error: unknown;
  readonly outputs: Record<string, string>;
  readonly summary: string;
  readonly log: RecordingLogger;
  readonly root: string;
}

/** One run of the action on a pull_request event, with the workspace written afresh. */
async function run(
  f: FakeGitHub,
  opts: {
    inputs?: Record<string, string>;
    tasks?: readonly MultiTask[];
    /** The export's rows as written (instead of `tasks`). */
    lines?: readonly string[];
    policy: string;
    event?: "pull_request" | "push";
    /** The young generation's cap the shell passes in (src/io/young-generation.ts). */
    youngGeneration?: () => void;
  },
): Promise<Run> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "rank-mode-")));
  dirs.push(root);
  const workspace = join(root, "workspace");
  const write = (rel: string, text: string): void => {
    mkdirSync(dirname(join(workspace, rel)), { recursive: true });
    writeFileSync(join(workspace, rel), text);
  };
  write(RESULTS_PATH, (opts.lines ?? multiLines(opts.tasks ?? CLEAR_TOP)).join("\n") + "\n");
  write(POLICY_PATH, opts.policy);
  mkdirSync(join(root, "temp"));
  const event = opts.event ?? "pull_request";
  writeFileSync(join(root, "event.json"), JSON.stringify(eventPayload(event)));
  const inputs: Record<string, string> = {
    results: RESULTS_PATH,
    policy: POLICY_PATH,
    models: MODELS,
    "github-token": "ghs_fake_installation_token",
    ...opts.inputs,
  };
  const outputs: Record<string, string> = {};
  let summary = "";
  const log = createRecordingLogger();
  let result: RankActionResult | null = null;
  let error: unknown = null;
  try {
    result = (await runGateAction({
      env: {
        GITHUB_EVENT_NAME: event,
        GITHUB_EVENT_PATH: join(root, "event.json"),
        GITHUB_WORKSPACE: workspace,
        GITHUB_REPOSITORY: "acme/models",
        GITHUB_API_URL: f.baseUrl,
        GITHUB_SHA: event === "push" ? PUSH_SHA : DEFAULT_BRANCH_SHA,
        RUNNER_TEMP: join(root, "temp"),
      },
      cwd: workspace,
      getInput: (name) => inputs[name] ?? "",
      log,
      setOutput: (name, value) => {
        outputs[name] = value;
        return true;
      },
      writeSummary: (md) => {
        summary += md;
        return Promise.resolve(true);
      },
      makeOctokit: (token, baseUrl) => octokitAt(baseUrl, { token, log }),
      git: runGit,
      gitToFile,
      retry: fastRetry(),
      today: "2026-12-04",
      ...(opts.youngGeneration === undefined ? {} : { youngGeneration: { cap: opts.youngGeneration } }),
    })) as RankActionResult;
  } catch (e) {
    error = e;
  }
  return { result, error, outputs, summary, log, root };
}

function reportOf(r: Run): RankReport {
  return JSON.parse(readFileSync(r.outputs["report-path"] ?? "", "utf8")) as RankReport;
}

const TOP_GROUP = policyWith(50, "rank:\n  require: top_group\n");

describe("rank mode: the young generation's check reaches the read", () => {
  it("is called as a large export is read (every 4,096 lines), and the ranking is the same", async () => {
    // 1,400 tasks × 3 models: 4,200 lines.
    const tasks: MultiTask[] = Array.from({ length: 1400 }, (_, i) => ({
      id: `t-${String(i).padStart(4, "0")}`,
      validity: "valid",
      results: {
        "cfg-a": [i % 10 < 8 ? "pass" : "fail"],
        "cfg-b": [i % 10 < 4 ? "pass" : "fail"],
        "cfg-c": [i % 10 < 2 ? "pass" : "fail"],
      },
    }));
    let checks = 0;
    const f = await startFake(policyWith(50));
    const checked = await run(f, {
      policy: policyWith(50),
      tasks,
      youngGeneration: () => {
        checks++;
      },
    });
    const plain = await run(f, { policy: policyWith(50), tasks });
    expect(checked.error).toBeNull();
    expect(checks).toBeGreaterThanOrEqual(1);
    expect(reportOf(checked).models).toEqual(reportOf(plain).models);
  });
});

describe("rank mode: one check run, one sticky comment of its own", () => {
  it("creates them under the check name Model ranking, and sets exactly the rank outputs", async () => {
    const f = await startFake(policyWith(50));
    const r = await run(f, { policy: policyWith(50) });
    expect(r.error).toBeNull();
    expect(r.outputs).toEqual({
      verdict: "accept",
      top: "cfg-a",
      "top-resolved": "true",
      "report-path": join(r.root, "temp", "model-gate-report.json"),
      "check-run-id": String(f.checkRuns[0]?.id),
      "comment-id": String(f.comments[0]?.id),
    });
    expect(r.result?.verdictFailure).toBeNull();
    expect(r.result?.undelivered).toEqual([]);
    const report = reportOf(r);
    expect(report).toEqual(r.result?.report);
    expect(report.kind).toBe("rank");
    expect(report.provenance.policy.source).toBe(`base commit ${BASE_SHA} (contents API)`);
    expect(report.provenance.inputs.map((i) => i.path)).toEqual([RESULTS_PATH]);
    expect(f.calls()).toEqual([
      "GET repos/get-content",
      "GET repos/list-commits",
      "POST checks/create",
      "POST graphql",
      "GET issues/list-comments",
      "POST issues/create-comment",
      "GET issues/list-comments",
    ]);
    expect(f.checkRuns).toHaveLength(1);
    expect(f.checkRuns[0]).toMatchObject({
      name: "Model ranking",
      head_sha: HEAD_SHA,
      status: "completed",
      conclusion: "success",
    });
    expect(f.checkRuns[0]?.output.title).toBe(
      'Accept (rank.require: top_resolved): "cfg-a" is first; 3 models ranked',
    );
    expect(f.checkRuns[0]?.output.summary).toBe(r.summary);
    expect(r.summary.startsWith("## ✅ accept — rank gate\n\n<sub>Model ranking</sub>\n")).toBe(true);
    expect(f.comments).toHaveLength(1);
    const body = f.comments[0]?.body ?? "";
    expect(f.comments[0]?.issue).toBe(PR_NUMBER);
    expect(readHeader(body)?.key).toBe("Model%20ranking");
    expect(body.startsWith(`${COMMENT_MARKER}\n<!-- model-acceptance-gate:key Model%20ranking -->\n`)).toBe(
      true,
    );
    // The comment is the summary under its hidden header.
    expect(body.slice(body.indexOf("\n\n") + 2)).toBe(r.summary);
    expect(r.log.lines.filter((l) => l.level === "group").map((l) => l.message)).toEqual([
      "Inputs",
      "Policy",
      "Append-only",
      "Reading the results",
      "Verdict",
      "GitHub",
    ]);
    expect(r.log.lines.filter((l) => l.level === "warning" || l.level === "error")).toEqual([]);
  });

  it("updates its comment on the next run, and leaves an evaluate gate's comment on the PR alone", async () => {
    const f = await startFake(policyWith(50));
    const evaluate = f.addComment(PR_NUMBER, commentBody("e".repeat(64), "evaluate verdict", GATE_KEY));
    const first = await run(f, { policy: policyWith(50) });
    const second = await run(f, { policy: policyWith(50), tasks: TIED_TOP });
    expect(first.error).toBeNull();
    expect(second.error).toBeNull();
    expect(f.comments).toHaveLength(2);
    expect(f.comments[0]).toEqual(evaluate);
    expect(f.comments[0]?.updates).toBe(0);
    expect(f.comments[0]?.body).toBe(commentBody("e".repeat(64), "evaluate verdict", GATE_KEY));
    const rank = f.comments[1];
    expect(rank?.updates).toBe(1);
    expect(second.outputs["comment-id"]).toBe(String(rank?.id));
    expect(first.outputs["comment-id"]).toBe(String(rank?.id));
    expect(rank?.body.includes("## ⚠️ unresolved — rank gate")).toBe(true);
    expect(f.checkRuns.map((c) => [c.name, c.conclusion])).toEqual([
      ["Model ranking", "success"],
      ["Model ranking", "failure"],
    ]);
  });

  it("comment: on-change leaves an unchanged ranking's comment as it is", async () => {
    const f = await startFake(policyWith(50));
    await run(f, { policy: policyWith(50), inputs: { comment: "on-change" } });
    const again = await run(f, { policy: policyWith(50), inputs: { comment: "on-change" } });
    expect(f.comments).toHaveLength(1);
    expect(f.comments[0]?.updates).toBe(0);
    expect(again.outputs["comment-id"]).toBe(String(f.comments[0]?.id));
  });

  it("without a token: no GitHub call, the verdict in the summary, the outputs and the report", async () => {
    const f = await startFake(policyWith(50));
    const r = await run(f, {
      policy: policyWith(50),
      event: "push",
      inputs: { "github-token": "", "report-path": "out/rank.json" },
    });
    expect(r.error).toBeNull();
    expect(f.calls()).toEqual([]);
    expect(r.outputs).toEqual({
      verdict: "accept",
      top: "cfg-a",
      "top-resolved": "true",
      "report-path": join(r.root, "workspace", "out", "rank.json"),
      "check-run-id": "",
      "comment-id": "",
    });
    expect(reportOf(r).provenance.policy.source).toBe("file");
    expect(r.summary.startsWith("## ✅ accept — rank gate\n")).toBe(true);
  });

  it("check-name and comment-key set its name and key", async () => {
    const f = await startFake(policyWith(50));
    const r = await run(f, {
      policy: policyWith(50),
      inputs: { "check-name": "Leaderboard", "comment-key": "lb" },
    });
    expect(r.error).toBeNull();
    expect(f.checkRuns[0]?.name).toBe("Leaderboard");
    expect(readHeader(f.comments[0]?.body ?? "")?.key).toBe("lb");
  });
});

describe("rank mode: the gate per the policy's rank.require", () => {
  it("top_resolved (no rank section): a tie at the top is unresolved, top empty, and fails per fail-on", async () => {
    const f = await startFake(policyWith(50));
    const r = await run(f, { policy: policyWith(50), tasks: TIED_TOP });
    expect(r.outputs).toMatchObject({ verdict: "unresolved", top: "", "top-resolved": "false" });
    expect(r.result?.verdictFailure).toBe(
      'Model ranking gate verdict: unresolved (fail-on: reject-or-unresolved). The top is unresolved: 2 models could be first ("cfg-a", "cfg-b"): no model is ordered above them, and none is ordered above every other.',
    );
    expect(f.checkRuns[0]?.conclusion).toBe("failure");
    // The check title and the log name who could be first; the log never reads "Unresolved: the top model is resolved".
    const title =
      'Unresolved (rank.require: top_resolved): 2 models could be first: "cfg-a", "cfg-b"; 3 models ranked';
    expect(f.checkRuns[0]?.output.title).toBe(title);
    expect(r.log.lines.filter((l) => l.level === "info").map((l) => l.message)).toContain(`${title}.`);
    expect(r.log.lines.some((l) => l.message.includes("Unresolved: the top model is resolved"))).toBe(false);
    const lenient = await run(f, {
      policy: policyWith(50),
      tasks: TIED_TOP,
      inputs: { "fail-on": "reject" },
    });
    expect(lenient.result?.verdictFailure).toBeNull();
  });

  it("on_unresolved: neutral makes an unresolved gate's check run neutral", async () => {
    const policy = policyWith(50).replace("on_unresolved: fail", "on_unresolved: neutral");
    const f = await startFake(policy);
    const r = await run(f, { policy, tasks: TIED_TOP });
    expect(r.outputs["verdict"]).toBe("unresolved");
    expect(f.checkRuns[0]?.conclusion).toBe("neutral");
  });

  it("an expired policy with on_expired: neutral: an accepting gate's check run is neutral, never green", async () => {
    const expired = (onExpired: string): string =>
      policyWith(50)
        .replace("revisit: 2027-03-31", "revisit: 2026-01-31")
        .replace("on_expired: warn", `on_expired: ${onExpired}`);
    const neutral = await startFake(expired("neutral"));
    const r = await run(neutral, { policy: expired("neutral") });
    expect(r.outputs["verdict"]).toBe("accept");
    expect(neutral.checkRuns.map((c) => c.conclusion)).toEqual(["neutral"]);
    expect(r.result?.verdictFailure).toBeNull();
    // on_expired: warn keeps the accept green (with the warning): neutral is the policy's choice.
    const warned = await startFake(expired("warn"));
    const w = await run(warned, { policy: expired("warn") });
    expect(w.outputs["verdict"]).toBe("accept");
    expect(warned.checkRuns.map((c) => c.conclusion)).toEqual(["success"]);
    expect(
      w.log.lines.some((l) => l.level === "warning" && l.message.includes("Policy expired on 2026-01-31")),
    ).toBe(true);
  });

  it("top_group: accept for a candidate tied at the top, reject for one a model is ordered above", async () => {
    const f = await startFake(TOP_GROUP);
    const tied = await run(f, { policy: TOP_GROUP, tasks: TIED_TOP, inputs: { candidate: "cfg-b" } });
    expect(tied.outputs).toMatchObject({ verdict: "accept", top: "", "top-resolved": "false" });
    expect(tied.result?.report.gate).toEqual({
      require: "top_group",
      candidate: "cfg-b",
      verdict: "accept",
      reasons: [
        '"cfg-b" is in the top group: it could be first (no model is ordered above it), and it is ordered above every model that could not (1 model).',
      ],
    });
    const low = await run(f, { policy: TOP_GROUP, inputs: { candidate: "cfg-c" } });
    expect(low.outputs).toMatchObject({ verdict: "reject", top: "cfg-a", "top-resolved": "true" });
    expect(low.result?.verdictFailure).toBe(
      'Model ranking gate verdict: reject (fail-on: reject-or-unresolved). "cfg-c" could not be first: 1 model is ordered above it ("cfg-a").',
    );
    expect(f.checkRuns.map((c) => [c.conclusion, c.output.title])).toEqual([
      [
        "success",
        'Accept (rank.require: top_group, candidate "cfg-b"): 2 models could be first: "cfg-a", "cfg-b"; 3 models ranked',
      ],
      ["failure", 'Reject (rank.require: top_group, candidate "cfg-c"): "cfg-a" is first; 3 models ranked'],
    ]);
  });

  it("above_reference: the reference input wins over the policy's rank.reference", async () => {
    const policy = policyWith(50, "rank:\n  require: above_reference\n  reference: cfg-c\n");
    const f = await startFake(policy);
    const tie = await run(f, { policy, inputs: { candidate: "cfg-b" } });
    expect(tie.outputs["verdict"]).toBe("unresolved");
    expect(tie.result?.report).toMatchObject({ reference: "cfg-c" });
    const above = await run(f, { policy, inputs: { candidate: "cfg-a", reference: "cfg-b" } });
    expect(above.outputs["verdict"]).toBe("accept");
    expect(above.result?.report.gate.reasons).toEqual(['"cfg-a" is ordered above the reference "cfg-b".']);
    const below = await run(f, { policy, inputs: { candidate: "cfg-b", reference: "cfg-a" } });
    expect(below.outputs["verdict"]).toBe("reject");
  });
});

describe("rank mode: input errors", () => {
  async function inputError(inputs: Record<string, string>, policy = policyWith(50)): Promise<string> {
    const f = await startFake(policy);
    const r = await run(f, { policy, inputs });
    expect(r.error).toBeInstanceOf(InputError);
    expect(r.outputs["verdict"]).toBeUndefined();
    return (r.error as Error).message;
  }

  it("evaluate's baseline and canary, too few or repeated models, and strangers are all listed at once", async () => {
    expect(
      await inputError({ baseline: "cfg-a", canary: "pass", models: "cfg-a,cfg-a", candidate: "cfg-z" }),
    ).toBe(
      [
        "The action's inputs are invalid (4 problems):",
        '  field "baseline": is for evaluate (one pair); with models set the action ranks: leave it empty, and name the production config with reference',
        '  field "canary": is for evaluate (one pair); rank mode has no production canary: leave it empty',
        '  field "models": names "cfg-a" twice',
        '  field "models": needs at least 2 different model_config ids, separated by commas or newlines; got 1',
      ].join("\n"),
    );
    expect(await inputError({ models: "cfg-a,cfg-b", reference: "cfg-c", "fail-on": "always" })).toBe(
      [
        "The action's inputs are invalid (2 problems):",
        '  field "fail-on": must be one of "reject", "reject-or-unresolved", "never", got "always"',
        '  field "reference": "cfg-c" is not among the models: add it to models',
      ].join("\n"),
    );
  });

  it("a gate on a candidate without one is an input error on the check run, with no verdict", async () => {
    const f = await startFake(TOP_GROUP);
    const r = await run(f, { policy: TOP_GROUP });
    expect((r.error as Error).message).toBe(
      "The policy's rank.require is top_group: name the candidate (the action's candidate input, the CLI's --candidate).",
    );
    expect(f.checkRuns.map((c) => [c.name, c.conclusion, c.output.title])).toEqual([
      ["Model ranking", "failure", "Input error: no verdict"],
    ]);
    // Refused before the export is read.
    expect(r.log.lines.filter((l) => l.level === "group").map((l) => l.message)).toEqual([
      "Inputs",
      "Policy",
      "Reporting the error",
    ]);
    expect(r.summary.startsWith("## ❗ input error — no verdict\n\n<sub>Model ranking</sub>\n")).toBe(true);
    expect(f.comments).toEqual([]);
  });

  it("a policy rank.reference not among the models is named as such", async () => {
    const policy = policyWith(50, "rank:\n  reference: cfg-z\n");
    expect(await inputError({}, policy)).toBe(
      'The policy\'s rank.reference "cfg-z" is not among the models input ("cfg-a", "cfg-b", "cfg-c"): add it there, or set the reference input.',
    );
  });
});

/** Ids a pull request's export could carry: a mention, HTML, a link, a fake marker. */
const HOSTILE = [
  "@alice",
  "<img src=x onerror=alert(1)>",
  "[x](https://evil.example)",
  "<!-- model-acceptance-gate:report -->",
];

describe("rank mode: untrusted ids and GitHub's limits", () => {
  it("escapes every model id in the comment, the summary and the check run", async () => {
    const tasks: MultiTask[] = CLEAR_TOP.map((t) => ({
      ...t,
      results: {
        [HOSTILE[0] as string]: t.results["cfg-a"] ?? [],
        [HOSTILE[1] as string]: t.results["cfg-b"] ?? [],
        [HOSTILE[2] as string]: t.results["cfg-c"] ?? [],
        [HOSTILE[3] as string]: t.results["cfg-c"] ?? [],
      },
    }));
    const f = await startFake(TOP_GROUP);
    const r = await run(f, {
      policy: TOP_GROUP,
      tasks,
      inputs: { models: HOSTILE.join("\n"), candidate: HOSTILE[1] as string },
    });
    expect(r.error).toBeNull();
    expect(r.outputs["verdict"]).toBe("reject");
    expect(r.outputs["top"]).toBe("@alice");
    const body = f.comments[0]?.body ?? "";
    for (const text of [body, r.summary, f.checkRuns[0]?.output.summary ?? ""]) {
      expect(text).toContain("alice");
      expect(text).not.toMatch(/(^|[^&#\w])@alice/);
      expect(text).not.toContain("<img");
      expect(text).not.toContain("](https://evil");
    }
    // The marker appears once: at the top of the comment, nowhere in the text.
    expect(body.split(COMMENT_MARKER)).toHaveLength(2);
    expect(r.summary).not.toContain(COMMENT_MARKER);
  });

  it("the gate and the ranking stay within any budget, the gate block first", async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), "rank-mode-big-")));
    dirs.push(dir);
    const models = Array.from({ length: 30 }, (_, i) => `cfg-${String(i).padStart(2, "0")}`);
    const report = await rankOf(
      writeMulti(dir, randomTasks(5, models, 300, { open: 0.3 })),
      policyWith(10),
      models,
    );
    const full = rankMarkdown(report, "Model ranking", Number.MAX_SAFE_INTEGER);
    expect(full.length).toBeGreaterThan(20000);
    const head = `## ⚠️ unresolved — rank gate\n\n<sub>Model ranking</sub>\n`;
    expect(report.gate.verdict).toBe("unresolved");
    for (const max of [3000, 6000, 20000]) {
      const md = rankMarkdown(report, "Model ranking", max);
      expect(md.length).toBeLessThanOrEqual(max);
      expect(md.startsWith(head)).toBe(true);
    }
    const { body } = rankCommentBody(report, "Model ranking", "Model ranking");
    expect(body.length).toBeLessThanOrEqual(COMMENT_BODY_MAX);
    expect(body.startsWith(`${COMMENT_MARKER}\n<!-- model-acceptance-gate:key Model%20ranking -->\n`)).toBe(
      true,
    );
  });
});

describe("the dispatch (src/action/gate-action.ts)", () => {
  it("without models the action evaluates one pair, and says reference is ignored there", async () => {
    const f = await startFake(policyWith(50));
    const r = await run(f, {
      policy: policyWith(50),
      inputs: { models: "", baseline: "cfg-b", candidate: "cfg-a", reference: "cfg-c" },
    });
    expect(r.error).toBeNull();
    expect(r.outputs["verdict"]).toBe("accept");
    expect(r.outputs["top"]).toBeUndefined();
    expect(r.outputs["margin"]).toBe("0.4166666666666667");
    expect(f.checkRuns.map((c) => c.name)).toEqual(["Model acceptance gate"]);
    expect(readHeader(f.comments[0]?.body ?? "")?.key).toBe("Model%20acceptance%20gate");
    expect(r.log.lines.filter((l) => l.level === "warning").map((l) => l.message)).toEqual([
      "reference is used only in rank mode (with models set); evaluate compares candidate with baseline, and ignores it.",
    ]);
  });
});

describe("rank mode: a pull request that edits the policy", () => {
  it("the base commit's rank.require decides, and the comment says the policy is edited", async () => {
    const f = await startFake(TOP_GROUP);
    // The head loosens the gate to top_resolved; the base's top_group still rejects cfg-c.
    const r = await run(f, { policy: policyWith(50), inputs: { candidate: "cfg-c" } });
    expect(r.outputs["verdict"]).toBe("reject");
    const note =
      "This change edits the policy gate/policy.yaml; the base commit's version decides, and the edit applies once merged.";
    expect(r.result?.report.warnings).toEqual([note]);
    expect(f.comments[0]?.body).toContain(
      "> ⚠️ This change edits the policy gate/policy\\.yaml; the base commit's version decides, and the edit applies once merged\\.",
    );
  });
});

describe("rank mode: an export of several benchmarks", () => {
  /** CLEAR_TOP as the benchmark "public" (cfg-a first), TIED_TOP as "private-canary" (cfg-a and cfg-b could be first). */
  const lines = [
    ...multiLines(CLEAR_TOP).map((l) => JSON.stringify({ ...JSON.parse(l), benchmark: "public" })),
    ...multiLines(TIED_TOP.map((t) => ({ ...t, id: `canary-${t.id}` }))).map((l) =>
      JSON.stringify({ ...JSON.parse(l), benchmark: "private-canary" }),
    ),
  ];

  it("ranks within each and gates conservatively: accept in both, or reject in one", async () => {
    const f = await startFake(TOP_GROUP);
    const both = await run(f, { policy: TOP_GROUP, lines, inputs: { candidate: "cfg-a" } });
    expect(both.error).toBeNull();
    expect(both.outputs["verdict"]).toBe("accept");
    // cfg-a is not resolved first in the canary: no model is first in every benchmark.
    expect(both.outputs["top"]).toBe("");
    expect(both.outputs["top-resolved"]).toBe("false");
    const report = reportOf(both) as unknown as { benchmarks: { name: string; top: string | null }[] };
    expect(report.benchmarks.map((b) => [b.name, b.top])).toEqual([
      ["private-canary", null],
      ["public", "cfg-a"],
    ]);
    expect(f.checkRuns[0]?.output.title).toBe(
      'Accept (rank.require: top_group, candidate "cfg-a"): ranked within 2 benchmarks ("private-canary", "public")',
    );
    expect(both.summary).toContain("## ✅ accept — rank gate");
    expect(both.summary).toContain("Ranked within each of 2 benchmarks");
    expect(both.summary).toContain(
      "- Benchmark <code>public</code>: <code>cfg\\-a</code> is first: ordered above every other model; 60 common valid tasks; rank gate: accept.",
    );
    const one = await run(f, { policy: TOP_GROUP, lines, inputs: { candidate: "cfg-b" } });
    expect(one.outputs["verdict"]).toBe("reject");
    expect(one.result?.report.gate.reasons.some((r) => r.startsWith('Benchmark "public" (reject): '))).toBe(
      true,
    );
    expect(
      one.result?.report.gate.reasons.some((r) => r.startsWith('Benchmark "private-canary" (accept): ')),
    ).toBe(true);
  });
});
