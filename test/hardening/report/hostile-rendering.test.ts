/**
 * Hostile text in every string field of the export (task ids, model ids, dataset and harness
 * revisions, evidence, cluster, attempt), the reviews (reviewer, note), the policy (owner) and the
 * file names, run through the CLI bundle in both formats:
 *   - Markdown: inert — no raw `<` beyond the renderer's own tags, no mention, issue link or
 *     autolink, never the comment marker, no hidden or bidi character, every table row with its
 *     table's column count, no line that starts a workflow command;
 *   - JSON: valid, and every string exactly as given (nothing escaped away, cut or altered);
 *   - stderr: empty on success; on refused input the message quotes the id escaped and no line
 *     starts with `::`.
 * The action's side (summary, comment, check run, log) is covered by test/action/action.test.ts
 * ("hostile task ids and evidence render inert …", "a task id with a line break and ::error:: …").
 */
import { beforeAll, describe, expect, it } from "vitest";

import type { Report } from "../../../src/core/report/report-types.js";
import { shownBrokenTasks, shownReviewHistory } from "../../../src/core/report/task-lists.js";
import {
  expectNoWorkflowCommand,
  expectUserError,
  jsonl,
  runBundle,
  useScratch,
  type ProcessRun,
} from "../helpers.js";

const scratch = useScratch("gate-hostile-");

const MARKER = "<!-- model-acceptance-gate:report -->";

/** Hostile strings that ids may hold (no control characters: the reader refuses those). */
const PAYLOADS = [
  "<script>alert(1)</script>",
  '<img src=x onerror="alert(1)">',
  MARKER,
  "--> <!--",
  "@org/team",
  "@octocat please",
  "#1",
  "owner/repo#12",
  "GH-12",
  "[click](https://evil.example)",
  "![img](https://evil.example/x.png)",
  "**bold** _it_ ~~s~~ `code` $x^2$",
  "| a | b |",
  "\\| escaped pipe \\",
  "&lt;b&gt; &#64;entity",
  "https://evil.example/path",
  "www.evil.example",
  ":: ::error::x ::set-output name=verdict::accept",
  "##[error]legacy",
  "\u202eevil\u202c reversed",
  "zero\u200bwidth\u200d\u2060\ufeff",
  "isolate\u2066x\u2069",
  "emoji 😀 and 中文",
  "\ud800 lone surrogate",
] as const;

const BASELINE = "@org/base <b>cfg</b> #1";
const CANDIDATE = `cand ${MARKER} \u202e`;
const DATASET = "ds <!-- x --> @team #7";
const HARNESS = "harness | pipe | [x](y)";
const OWNER =
  "@org/owners\n::error::owner\n::set-output name=verdict::accept\n::add-mask::x <!-- model-acceptance-gate:report --> #1 \u202e";
const EVIDENCE = [
  "javascript:alert(1)",
  "https://evil.example/@x?a=<b>&c=|",
  "logs/<x>.txt",
  "data:text/html,<script>x</script>",
  "@team #1",
];
const NOTE = "line\n::error::note\n::set-output name=verdict::accept\n::add-mask::x";

const taskId = (i: number): string => `${PAYLOADS[i % PAYLOADS.length] ?? "t"} ${i}`;

function exportRows(): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = [];
  const add = (i: number, validity: string, a: string, b: string) => {
    const common = {
      task_id: taskId(i),
      dataset_revision: DATASET,
      harness_revision: HARNESS,
      validity,
      review_revision: 1,
      evidence: EVIDENCE,
      cluster: PAYLOADS[(i + 3) % PAYLOADS.length],
      attempt: PAYLOADS[(i + 5) % PAYLOADS.length],
    };
    rows.push(
      { ...common, model_config: CANDIDATE, result: a },
      { ...common, model_config: BASELINE, result: b },
    );
  };
  for (let i = 0; i < 12; i++) add(i, "valid", "pass", i % 4 === 0 ? "pass" : "fail");
  for (let i = 12; i < 18; i++)
    add(i, i % 2 === 0 ? "disputed" : "unreviewed", i % 3 === 0 ? "fail" : "pass", "fail");
  for (let i = 18; i < 21; i++) add(i, "broken", "pass", "fail");
  return rows;
}

function reviewRows(): Record<string, unknown>[] {
  return [0, 1, 12, 13, 18, 19, 20, 21, 22, 23].map((i) => ({
    task_id: taskId(i),
    dataset_revision: DATASET,
    // Task 12 is relabelled (disputed → valid); task 13 gets its first label (unreviewed → disputed).
    validity: i < 13 ? "valid" : i < 18 ? "disputed" : "broken",
    review_revision: 2,
    reviewer: PAYLOADS[i % PAYLOADS.length],
    note: NOTE,
    evidence: [`review ${PAYLOADS[i % PAYLOADS.length] ?? ""}`],
  }));
}

const POLICY = `owner: ${JSON.stringify(OWNER)}
revisit: 2027-03-31
accept_if:
  common_valid_tasks: ">= 5"
  infra_error_rate: "< 1%"
  disputed_fraction: "< 50%"
  observed_margin: "> validity_sensitivity + run_variance"
`;

let resultsName: string;
let markdown: ProcessRun;
let json: ProcessRun;
let report: Report;

/** The gate on the files beforeAll writes into the scratch directory, in `format`. */
function gateArgs(format: string): string[] {
  return [
    "evaluate",
    "--results",
    resultsName,
    "--reviews",
    "reviews.jsonl",
    "--policy",
    "policy.yaml",
    "--baseline",
    BASELINE,
    "--candidate",
    CANDIDATE,
    "--today",
    "2026-11-29",
    "--format",
    format,
  ];
}

beforeAll(() => {
  // A file name is untrusted too: a line break and a workflow command in it.
  resultsName = "results\n::error::file \u202e<b>.jsonl";
  scratch.write(jsonl(exportRows()), resultsName);
  scratch.write(jsonl(reviewRows()), "reviews.jsonl");
  scratch.write(POLICY, "policy.yaml");
  markdown = runBundle(gateArgs("markdown"), { cwd: scratch.dir });
  json = runBundle(gateArgs("json"), { cwd: scratch.dir });
  report = JSON.parse(json.stdout) as Report;
});

/** Tags the renderer writes itself; any other `<` would come from data. */
const OWN_TAGS = /<\/?(?:details|summary|code|sub|b|wbr)(?: open)?>/g;
/** Controls other than LF, soft hyphen, bidi marks and controls, zero-width and other invisible characters. */
const HIDDEN = new RegExp(
  // eslint-disable-next-line no-control-regex -- the class lists the control characters to find
  "[\\u0000-\\u0009\\u000b-\\u001f\\u007f-\\u009f\\u00ad\\u061c\\u180e\\u200b-\\u200f\\u202a-\\u202e\\u2060-\\u2064\\u2066-\\u206f\\ufeff\\ufff9-\\ufffb]",
  "u",
);

describe("hostile strings in every field: the Markdown stays inert", () => {
  it("the run succeeds with a verdict and nothing on stderr", () => {
    expect([markdown.code, markdown.stderr]).toEqual([0, ""]);
    expect(markdown.stdout).toMatch(/^## ✅ accept — candidate /);
  });

  it("every hostile string was there to render (the report carries them)", () => {
    expect(report.comparison.influential_tasks.length).toBeGreaterThan(0);
    expect(report.broken_tasks.count).toBeGreaterThan(0);
    expect(report.review_history.count).toBeGreaterThan(0);
    expect(markdown.stdout).toContain("Disputed and unreviewed tasks");
    expect(markdown.stdout).toContain("Review history");
    expect(markdown.stdout).toMatch(/<b>\d+ broken tasks?<\/b>/);
    // Cluster names, by the margin they carry (SPEC §3.6), exactly as the export gives them.
    expect(markdown.stdout).toContain("<b>Where the margin comes from</b>");
    const clusters = (report.margin_by_cluster?.rows ?? []).map((r) => r.cluster);
    expect(clusters.length).toBeGreaterThan(5);
    for (const c of clusters) expect(PAYLOADS).toContain(c);
  });

  it("never contains the comment marker, nor an HTML comment", () => {
    expect(markdown.stdout).not.toContain(MARKER);
    expect(markdown.stdout).not.toContain("<!--");
    expect(markdown.stdout).not.toContain("-->");
  });

  it("has no raw < other than the renderer's own tags, and no raw >", () => {
    // The text bar's fenced block holds generated characters only (its legend says "LCB > δ₀").
    const stripped = markdown.stdout.replace(/```text\n[\s\S]*?\n```/g, "").replace(OWN_TAGS, "");
    expect(stripped).not.toContain("<");
    // ">" only as a blockquote marker at a line start.
    expect(stripped.split("\n").filter((l) => l.replace(/^> ?/, "").includes(">"))).toEqual([]);
  });

  it("has no live mention, issue reference or autolink", () => {
    const text = markdown.stdout;
    // Link destinations (the renderer's, percent-encoded) are not scanned for mentions.
    const shown = text.replace(/\]\(https?:\/\/[^)\s]*\)/g, "]");
    expect(shown.split("\n").filter((l) => l.includes("@"))).toEqual([]);
    const withoutEntities = shown.replace(/&#\d+;|&[a-z]+;/g, "");
    for (const line of withoutEntities.split("\n")) {
      // "#" only as a heading marker or the generated "#" column; never before a word (a reference).
      expect(/#[\p{L}\p{N}_]/u.test(line.replace(/^#{2,3} /, "")), line).toBe(false);
    }
    expect(text).not.toMatch(/GH-\d/);
    // "://" only inside the destination of a link the renderer made from an http(s) evidence URL.
    const destinations = [...text.matchAll(/\]\((https?:\/\/[^)\s]*)\)/g)].map((m) => m[1] ?? "");
    expect(text.split("://").length - 1).toBe(destinations.length);
    for (const d of destinations) expect(d.startsWith("https://evil.example/")).toBe(true);
    expect(text).not.toMatch(/(^|[^\\])\]\((?!https?:\/\/)/m); // no link to anything but http(s)
    expect(text).not.toMatch(/!\[/); // no image
    expect(text).not.toMatch(/\]\((?:javascript|data):/i); // javascript: and data: URLs stay text
  });

  it("has no hidden, bidi or control character", () => {
    const offending = Array.from(markdown.stdout).filter(
      (c) => HIDDEN.test(c) || (c >= "\ud800" && c <= "\udfff"),
    );
    expect(offending.map((c) => `U+${(c.codePointAt(0) ?? 0).toString(16)}`)).toEqual([]);
  });

  it("keeps every table row at its table's column count", () => {
    const cells = (line: string) => line.replace(/\\\\/g, "").replace(/\\\|/g, "").split("|").length;
    const lines = markdown.stdout.split("\n");
    let tables = 0;
    for (let i = 0; i < lines.length; i++) {
      if (!lines[i]?.startsWith("|") || lines[i - 1]?.startsWith("|")) continue;
      tables++;
      const width = cells(lines[i] ?? "");
      for (let j = i; j < lines.length && lines[j]?.startsWith("|"); j++) {
        expect(cells(lines[j] ?? ""), lines[j]).toBe(width);
      }
    }
    expect(tables).toBeGreaterThanOrEqual(6);
  });

  it("has no line that starts a workflow command", () => {
    expectNoWorkflowCommand(markdown.stdout);
    expect(markdown.stdout).not.toContain("##[");
  });
});

describe("hostile strings in every field: the JSON keeps them exactly", () => {
  it("is valid JSON with nothing on stderr and no line that starts a workflow command", () => {
    expect([json.code, json.stderr]).toEqual([0, ""]);
    expectNoWorkflowCommand(json.stdout);
  });

  it("model ids, revisions, owner and file names", () => {
    expect(report.models.baseline.config).toBe(BASELINE);
    expect(report.models.candidate.config).toBe(CANDIDATE);
    expect(report.models.baseline.harness_revisions).toEqual([HARNESS]);
    expect(report.models.candidate.dataset_revisions).toEqual([DATASET]);
    expect(report.provenance.dataset_revisions).toEqual([DATASET]);
    expect(report.provenance.harness_revisions).toEqual([HARNESS]);
    expect(report.provenance.policy.owner).toBe(OWNER);
    expect(report.provenance.inputs.map((i) => i.path)).toEqual([resultsName, "reviews.jsonl"]);
  });

  it("task ids and evidence, in the influential, broken and history lists", () => {
    const ids = new Set(Array.from({ length: 21 }, (_, i) => taskId(i)));
    for (const t of report.comparison.influential_tasks) {
      expect(ids.has(t.task_id), t.task_id).toBe(true);
      expect(t.dataset_revision).toBe(DATASET);
      expect(t.evidence.slice(0, EVIDENCE.length)).toEqual(EVIDENCE);
    }
    const broken = shownBrokenTasks(report.broken_tasks, Infinity);
    expect(broken.map((t) => t.task_id).sort()).toEqual([18, 19, 20].map(taskId).sort());
    const history = shownReviewHistory(report.review_history, Infinity);
    // Only task 12 changed label (disputed → valid): task 13's first label (unreviewed →
    // disputed) is no change, and the other five reviews confirm the label.
    expect(history.map((h) => h.task_id)).toEqual([taskId(12)]);
    expect(report.review_history.same_label_tasks).toBe(5);
    expect(report.review_history.files).toEqual([resultsName, "reviews.jsonl"]);
    for (const h of history) {
      expect(typeof h.events === "string" ? h.events : h.events.map((e) => e.source)).toEqual([
        `${resultsName}:${String(2 * (taskIdIndex(h.task_id) ?? 0) + 1)}`,
        "reviews.jsonl:" + String(reviewLine(h.task_id)),
      ]);
    }
  });

  it("is the same report whatever the output format (the Markdown is rendered from it)", () => {
    const again = runBundle(gateArgs("json"), { cwd: scratch.dir });
    expect(again.stdout).toBe(json.stdout);
  });
});

function taskIdIndex(id: string): number | undefined {
  for (let i = 0; i < 21; i++) if (taskId(i) === id) return i;
  return undefined;
}

function reviewLine(id: string): number {
  return reviewRows().findIndex((r) => r["task_id"] === id) + 1;
}

describe("refused hostile input: the message itself is inert", () => {
  it.each([
    ["a line break and ::error::", "a\n::error::pwned", "\\n::error::pwned"],
    [
      "::set-output after a CR LF",
      "a\r\n::set-output name=verdict::accept",
      "\\r\\n::set-output name=verdict::accept",
    ],
    ["::add-mask:: after a line break", "x\n::add-mask::secret", "\\n::add-mask::secret"],
    ["an ANSI escape", "\u001b[31mred", "\\u001b[31mred"],
  ])("a task id with %s is refused, quoted escaped on one line", (_name, id, shown) => {
    const path = scratch.write(
      jsonl([
        {
          task_id: id,
          dataset_revision: "d",
          harness_revision: "h",
          model_config: "a",
          validity: "valid",
          result: "pass",
          review_revision: 1,
        },
        {
          task_id: "t",
          dataset_revision: "d",
          harness_revision: "h",
          model_config: "a",
          validity: "valid",
          result: "pass",
          review_revision: 1,
        },
        {
          task_id: "t",
          dataset_revision: "d",
          harness_revision: "h",
          model_config: "b",
          validity: "valid",
          result: "pass",
          review_revision: 1,
        },
      ]),
      "bad.jsonl",
    );
    const r = runBundle([
      "evaluate",
      "--results",
      path,
      "--policy",
      scratch.path("policy.yaml"),
      "--baseline",
      "b",
      "--candidate",
      "a",
      "--today",
      "2026-11-29",
    ]);
    expectUserError(
      r,
      `${path}:1: field "task_id": expected no control characters (U+0000-U+001F, U+007F-U+009F); got "`,
    );
    expect(r.stderr).toContain(shown);
    expect(r.stderr.split("\n")).toHaveLength(3);
  });

  it("an unknown model id with a bidi override and a marker is listed escaped", () => {
    const r = runBundle(
      [
        "evaluate",
        "--results",
        resultsName,
        "--policy",
        "policy.yaml",
        "--baseline",
        "evil\u202e<!-- x -->",
        "--candidate",
        CANDIDATE,
        "--today",
        "2026-11-29",
      ],
      { cwd: scratch.dir },
    );
    expectUserError(r, 'the baseline model_config "evil\\u202e<!-- x -->" does not appear in the export');
    expect(r.stderr).not.toContain("\u202e");
  });
});
