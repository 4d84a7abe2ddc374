/**
 * The importers read and write with the results reader's caps (#11, src/importers/caps.ts): line
 * length of line-oriented inputs (real 1 MiB cap, plain and inflated from gzip), lines written,
 * rows and distinct tasks (small caps passed in, so the tests stay small; the defaults are the
 * reader's own constants). Every importer kind is run through runImport on files on disk; each
 * error names the file, the line or the first row beyond, the cap, and that it cannot be raised.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { DEFAULT_INPUT_LIMITS, MAX_LINE_BYTES } from "../../src/read/limits.js";
import { DEFAULT_IMPORT_LIMITS, type ImportLimits } from "../../src/importers/caps.js";
import { runImport } from "../../src/importers/index.js";
import type { ImportOptions } from "../../src/importers/types.js";
import { inputErrorOf } from "./helpers.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function dir(): string {
  const d = mkdtempSync(join(tmpdir(), "gate-import-caps-"));
  dirs.push(d);
  return d;
}

const ids = (n: number): string[] => Array.from({ length: n }, (_, i) => `acme__repo-${i + 1}`);
const TASKS_FILE = "tasks.txt";

/** One input per kind with `n` tasks (one row each; inspect: one sample each). */
const INPUTS: Record<string, { file: string; text: (n: number) => string; tasks?: boolean }> = {
  "swebench-report": {
    file: "m.run.json",
    text: (n) => JSON.stringify({ resolved_ids: ids(n), unresolved_ids: [], schema_version: 2 }),
  },
  "swebench-results": {
    file: "results.json",
    text: (n) => JSON.stringify({ resolved: ids(n), no_generation: [], no_logs: [] }),
    tasks: true,
  },
  "swebench-leaderboard": {
    file: "lb.json",
    text: (n) =>
      JSON.stringify({
        leaderboards: [
          {
            name: "V",
            results: [
              {
                folder: "r",
                per_instance_details: Object.fromEntries(ids(n).map((id) => [id, { resolved: true }])),
              },
            ],
          },
        ],
      }),
  },
  "swebench-pro": {
    file: "eval_results.json",
    text: (n) => JSON.stringify(Object.fromEntries(ids(n).map((id) => [id, true]))),
  },
  inspect: {
    file: "log.json",
    text: (n) =>
      JSON.stringify({
        version: 2,
        status: "success",
        eval: { task: "t", model: "m", dataset: { name: "d" }, config: {} },
        samples: ids(n).map((id) => ({ id, epoch: 1, scores: { match: { value: "C" } } })),
      }),
  },
  "verified-annotations": {
    file: "ann.csv",
    text: (n) =>
      [
        "instance_id,underspecified,false_negative,other_major_issues",
        ...ids(n).map((id) => `${id},0.0,0.0,0.0`),
      ].join("\n") + "\n",
  },
  "reviews-csv": {
    file: "sheet.csv",
    text: (n) => ["task_id,validity", ...ids(n).map((id) => `${id},valid`)].join("\n") + "\n",
  },
};

function importFrom(
  kind: string,
  text: string,
  limits?: ImportLimits,
  extra: Partial<ImportOptions> = {},
  tasksInList = 3,
): { cwd: string; run: () => Promise<unknown> } {
  const spec = INPUTS[kind];
  if (spec === undefined) throw new Error(kind);
  const cwd = dir();
  writeFileSync(
    join(cwd, extra.file ?? spec.file),
    extra.file?.endsWith(".gz") === true ? gzipSync(text) : text,
  );
  // The task list names the same tasks as the input (its extra ids would become rows too).
  if (spec.tasks === true) writeFileSync(join(cwd, TASKS_FILE), ids(tasksInList).join("\n") + "\n");
  const opts = {
    kind,
    file: spec.file,
    cwd,
    ...(spec.tasks === true ? { tasks: TASKS_FILE } : {}),
    ...(limits === undefined ? {} : { limits }),
    ...extra,
  } as ImportOptions;
  return { cwd, run: () => runImport(opts) };
}

const small = (over: Partial<ImportLimits>): ImportLimits => ({ ...DEFAULT_IMPORT_LIMITS, ...over });

describe("the importers' caps are the reader's", () => {
  it("the defaults are the reader's own constants", () => {
    expect(DEFAULT_IMPORT_LIMITS).toEqual({
      lineBytes: MAX_LINE_BYTES,
      rows: DEFAULT_INPUT_LIMITS.maxAttemptIds,
      tasks: DEFAULT_INPUT_LIMITS.maxTasks,
    });
  });
});

describe.each(Object.keys(INPUTS))("%s: rows and tasks", (kind) => {
  it("at the cap: imported; one task beyond: refused, naming the first row beyond and its source", async () => {
    const within = importFrom(kind, INPUTS[kind]?.text(10) ?? "", small({ tasks: 10 }), {}, 10);
    await expect(within.run()).resolves.toBeDefined();
    const over = importFrom(kind, INPUTS[kind]?.text(11) ?? "", small({ tasks: 10 }), {}, 11);
    const m = await inputErrorOf(over.run);
    expect(m).toContain(`${INPUTS[kind]?.file}: cannot import`);
    expect(m).toContain("more than 10 distinct tasks, the most the gate reads; the first beyond is ");
    expect(m).toMatch(/"acme__repo-\d+" \(from [^)]+\)/);
    expect(m).toContain("the cap cannot be raised: split the input");
  });

  it("rows beyond the row cap: refused, naming row cap + 1", async () => {
    const over = importFrom(kind, INPUTS[kind]?.text(6) ?? "", small({ rows: 5 }), {}, 6);
    const m = await inputErrorOf(over.run);
    // CSV kinds stop at the line count (a header and 5 rows), before parsing; the others at the rows.
    expect(m).toMatch(
      /more than 5 rows, the most the gate holds of a model; row 6 is task|the file has more than 6 lines/,
    );
    expect(m).toContain("cannot be raised");
  });
});

describe("line length of line-oriented inputs: the real 1 MiB cap", () => {
  const long = "x".repeat(MAX_LINE_BYTES + 1);
  it.each(["verified-annotations", "reviews-csv"])(
    "%s: a line of 1 MiB + 1 byte is refused with its line number, plain and gzip",
    async (kind) => {
      const text = `${INPUTS[kind]?.text(2) ?? ""}${long}\n`;
      for (const file of [INPUTS[kind]?.file ?? "", `${INPUTS[kind]?.file ?? ""}.gz`]) {
        const m = await inputErrorOf(importFrom(kind, text, undefined, { file }).run);
        expect(m).toContain(`${file}: cannot import`);
        expect(m).toContain(
          `line 4 is longer than ${MAX_LINE_BYTES} bytes${file.endsWith(".gz") ? " (inflated)" : ""}, the longest line the gate reads`,
        );
      }
    },
  );

  it("a line of exactly 1 MiB passes the read cap (CRLF and CR ends count as the CSV reader counts them), then its note is refused", async () => {
    const note = "n".repeat(MAX_LINE_BYTES - "acme__repo-3,valid,".length);
    const text = `task_id,validity,note\r\nacme__repo-1,valid,\racme__repo-3,valid,${note}\r\n`;
    const exact = await inputErrorOf(importFrom("reviews-csv", text).run);
    expect(exact).toContain(
      `sheet.csv:3: task "acme__repo-3": note is ${note.length} characters long, more than the 65536 the gate reads in a note`,
    );
    const over = await inputErrorOf(importFrom("reviews-csv", text.replace(",valid,n", ",valid,nn")).run);
    expect(over).toContain("line 3 is longer than 1048576 bytes");
  });

  it("the --tasks list: an overlong line is refused, naming the list", async () => {
    const { cwd, run } = importFrom("swebench-results", INPUTS["swebench-results"]?.text(3) ?? "");
    writeFileSync(join(cwd, TASKS_FILE), `acme__repo-1\n${long}\n`);
    const m = await inputErrorOf(run);
    expect(m).toContain(`${TASKS_FILE}: cannot import`);
    expect(m).toContain("line 2 is longer than");
  });

  it("swebench-pro-audit: an overlong line in one of its files names that file and line", async () => {
    const d = dir();
    cpSync(resolve(import.meta.dirname, "fixtures/pro-audit"), join(d, "audit"), { recursive: true });
    const coverage = join(d, "audit", "COVERAGE.md");
    writeFileSync(coverage, `${readFileSync(coverage, "utf8")}| ${long} |\n`);
    const m = await inputErrorOf(() => runImport({ kind: "swebench-pro-audit", file: "audit", cwd: d }));
    expect(m).toContain("audit/COVERAGE.md: cannot import");
    expect(m).toMatch(/line \d+ is longer than 1048576 bytes/);
  });

  it("more lines than the row cap in a CSV (blank lines too): refused before parsing", async () => {
    const text = "task_id,validity\n" + "\n".repeat(8);
    const m = await inputErrorOf(importFrom("reviews-csv", text, small({ rows: 5 })).run);
    expect(m).toContain("the file has more than 6 lines, the most one import reads");
  });
});

describe("lines written: at most the reader's line length", () => {
  it("swebench-pro: a task id over the reader's 4096-character id cap is refused at import, naming the task and its place", async () => {
    const id = `acme__${"y".repeat(MAX_LINE_BYTES)}`;
    const { run } = importFrom("swebench-pro", JSON.stringify({ [id]: true }));
    const m = await inputErrorOf(run);
    expect(m).toContain('eval_results.json: field "/acme__yyyy');
    expect(m).toContain(`task_id "acme__yyyy`);
    expect(m).toContain(`is ${id.length} characters long, more than the 4096 the gate reads in an id`);
    const at = (n: number) => `acme__${"y".repeat(n - 6)}`;
    const ok = (await importFrom("swebench-pro", JSON.stringify({ [at(4096)]: true })).run()) as {
      lines: string[];
    };
    expect(ok.lines).toHaveLength(1);
    await expect(importFrom("swebench-pro", JSON.stringify({ [at(4097)]: true })).run()).rejects.toThrow(
      "is 4097 characters long",
    );
  });

  it("reviews-csv: a note that makes the written line too long (small cap): refused", async () => {
    const text = `task_id,validity,note\nacme__repo-1,valid,${"z".repeat(150)}\n`;
    const m = await inputErrorOf(importFrom("reviews-csv", text, small({ lineBytes: 200 })).run);
    expect(m).toContain('the row of task "acme__repo-1" (from sheet.csv#row=2) would be a');
    expect(m).toContain("longer than the 200 bytes the gate reads");
  });
});

describe("the default caps let real inputs through", () => {
  it("the swebench-pro-audit fixture imports", async () => {
    const d = dir();
    cpSync(resolve(import.meta.dirname, "fixtures/pro-audit"), join(d, "audit"), { recursive: true });
    const r = await runImport({ kind: "swebench-pro-audit", file: "audit", cwd: d });
    expect(r.lines.length).toBeGreaterThan(0);
  });
});
