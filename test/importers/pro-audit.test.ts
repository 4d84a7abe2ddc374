/**
 * swebench-pro-audit on a hand-written fixture in the layout of the audit's files
 * (test/importers/fixtures/pro-audit: ten cases, one of each classification) and on variants of
 * it, one per error. The real audit is checked in pro-audit-real-data.test.ts.
 */
import { mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, test } from "vitest";
import { importInputs, importText, parseTaskList, runImport } from "../../src/importers/index.js";
import { inputErrorOf, parseLines, revisionOf } from "./helpers.js";

const repoRoot = resolve(import.meta.dirname, "../..");
const DIR = "test/importers/fixtures/pro-audit";
const NAMES = ["KNOWN_BAD.md", "COVERAGE.md", "CLAIMS.md", "case_instance_ids.tsv"] as const;
type Name = (typeof NAMES)[number];
const fixture = (): Record<Name, string> =>
  Object.fromEntries(NAMES.map((n) => [n, readFileSync(join(repoRoot, DIR, n), "utf8")])) as Record<
    Name,
    string
  >;
const ID = (s: string) => `instance_acme__${s}`;
const ALL_IDS = [
  "r1-aaaa111-vnan",
  "r1-bbbb222-vnan",
  "r1-cccc333-v9",
  "r2-dddd444-vnan",
  "r2-eeee555-vnan",
  "r2-ffff666-vnan",
  "r3-gggg777-vnan",
  "r3-hhhh888-vnan",
  "r3-iiii999-vnan",
  "r3-0bad000-vnan",
].map(ID);

/** The import of the fixture with `edit` applied to one file's text. */
function importEdited(name: Name, edit: (text: string) => string, extra: object = {}) {
  const files = fixture();
  files[name] = edit(files[name]);
  return importText({ kind: "swebench-pro-audit", file: "audit", ...extra }, "", undefined, files);
}
const errorOf = (name: Name, edit: (text: string) => string) => inputErrorOf(() => importEdited(name, edit));

describe("swebench-pro-audit", () => {
  test("one label per case: each classification, its note and its evidence (file#Lline)", async () => {
    const r = await runImport({ kind: "swebench-pro-audit", file: `${DIR}/`, cwd: repoRoot });
    const rev = revisionOf(ALL_IDS);
    const at = (f: string, n: number) => `${DIR}/${f}#L${n}`;
    expect(r.lines[0]).toBe(
      `{"task_id":"${ID("r1-aaaa111-vnan")}","dataset_revision":"${rev}","validity":"valid","review_revision":1,` +
        `"reviewer":"swebench-pro-audit","evidence":["${at("COVERAGE.md", 7)}","${at("case_instance_ids.tsv", 1)}"],` +
        `"note":"COVERAGE.md: ENTAILED"}`,
    );
    const rows = parseLines(r.lines);
    expect(rows.map((o) => [o["task_id"], o["validity"], o["evidence"], o["note"]])).toEqual([
      [
        ID("r1-aaaa111-vnan"),
        "valid",
        [at("COVERAGE.md", 7), at("case_instance_ids.tsv", 1)],
        "COVERAGE.md: ENTAILED",
      ],
      [
        ID("r1-bbbb222-vnan"),
        "valid",
        [at("COVERAGE.md", 8), at("case_instance_ids.tsv", 2)],
        "COVERAGE.md: DETERMINED-codebase",
      ],
      [
        ID("r1-cccc333-v9"),
        "broken",
        [at("CLAIMS.md", 11), at("COVERAGE.md", 9), at("case_instance_ids.tsv", 3)],
        "CLAIMS.md: claimed (airtight); COVERAGE.md: AMBIGUOUS, witness class airtight (PROVEN, mechanical spine) agrees",
      ],
      [
        ID("r2-dddd444-vnan"),
        "broken",
        [at("CLAIMS.md", 18), at("COVERAGE.md", 10), at("case_instance_ids.tsv", 4)],
        "CLAIMS.md: claimed (misdetermined); COVERAGE.md: MISDETERMINED, witness class misdetermined (codebase determines another value) agrees",
      ],
      [
        ID("r2-eeee555-vnan"),
        "disputed",
        [at("COVERAGE.md", 11), at("case_instance_ids.tsv", 5)],
        "COVERAGE.md: AMBIGUOUS, witness class prose-affirmative (PROVEN, mechanical spine); not claimed in CLAIMS.md",
      ],
      [
        ID("r2-ffff666-vnan"),
        "disputed",
        [at("COVERAGE.md", 12), at("case_instance_ids.tsv", 6)],
        "COVERAGE.md: AMBIGUOUS, witness class hypothesis (raters pending); not claimed in CLAIMS.md",
      ],
      [
        ID("r3-0bad000-vnan"),
        "broken",
        [at("KNOWN_BAD.md", 7), at("case_instance_ids.tsv", 10)],
        "KNOWN_BAD.md: gold NOT resolved (the gold patch fails the official grader)",
      ],
      [
        ID("r3-gggg777-vnan"),
        "disputed",
        [at("COVERAGE.md", 13), at("case_instance_ids.tsv", 7)],
        "COVERAGE.md: AMBIGUOUS, witness class (pending) (no witness yet); not claimed in CLAIMS.md",
      ],
      [
        // Tier 2 claim; the upstream-debate row (its comment holds lone CRs) adds evidence.
        ID("r3-hhhh888-vnan"),
        "broken",
        [at("CLAIMS.md", 24), at("COVERAGE.md", 14), at("CLAIMS.md", 30), at("case_instance_ids.tsv", 8)],
        "CLAIMS.md: claimed (two-expert split); COVERAGE.md: AMBIGUOUS, witness class plural-both (PROVEN, two-expert) agrees",
      ],
      [
        ID("r3-iiii999-vnan"),
        "disputed",
        [at("CLAIMS.md", 12), at("COVERAGE.md", 15), at("case_instance_ids.tsv", 9)],
        "conflict: CLAIMS.md: claimed (airtight), but COVERAGE.md: AMBIGUOUS, witness class codebase-plural (PROVEN, two-expert)",
      ],
    ]);
    expect(r.notes.slice(0, 2)).toEqual([
      "rule: KNOWN_BAD.md → broken; claimed in CLAIMS.md with COVERAGE.md agreeing → broken (default; --claimed disputed to count the audit's claims as disputed); claimed but COVERAGE.md disagrees → disputed; ENTAILED, DETERMINED-codebase → valid; AMBIGUOUS, MISDETERMINED not claimed → disputed",
      "labels: 10 tasks: 2 valid (1 DETERMINED-codebase, 1 ENTAILED), 4 broken (1 KNOWN_BAD.md, 3 claimed, COVERAGE.md agrees), 4 disputed (1 (pending), not claimed, 1 claimed, COVERAGE.md disagrees, 1 hypothesis, not claimed, 1 prose-affirmative, not claimed)",
    ]);
    expect(r.notes).toContain("reviewer: swebench-pro-audit (default; --reviewer)");
    expect(r.notes).toContain(
      `dataset_revision: ${rev} (computed: sha256 of the 10 task ids in ${DIR}/case_instance_ids.tsv, sorted by UTF-8 bytes and joined by "\\n"; --dataset-revision to set it)`,
    );
  });

  test("--claimed disputed: the agreed claims become disputed, KNOWN_BAD.md stays broken", () => {
    const r = importEdited("CLAIMS.md", (t) => t, { claimed: "disputed" });
    const byId = new Map(parseLines(r.lines).map((o) => [o["task_id"], o["validity"]]));
    expect([...byId.values()].filter((v) => v === "broken")).toHaveLength(1);
    expect(byId.get(ID("r3-0bad000-vnan"))).toBe("broken");
    expect(byId.get(ID("r1-cccc333-v9"))).toBe("disputed");
    expect(byId.get(ID("r2-dddd444-vnan"))).toBe("disputed");
    expect(byId.get(ID("r3-hhhh888-vnan"))).toBe("disputed");
    expect(r.notes[1]).toBe(
      "labels: 10 tasks: 2 valid (1 DETERMINED-codebase, 1 ENTAILED), 1 broken (1 KNOWN_BAD.md), 7 disputed (1 (pending), not claimed, 3 claimed, COVERAGE.md agrees, 1 claimed, COVERAGE.md disagrees, 1 hypothesis, not claimed, 1 prose-affirmative, not claimed)",
    );
  });

  test("--tasks: audited ids outside the list are left out, ids of the list not in the audit are named", () => {
    const tasks = parseTaskList("pro.txt", `${ID("r1-aaaa111-vnan")}\n${ID("r3-0bad000-vnan")}\nother-1\n`);
    const r = importText(
      { kind: "swebench-pro-audit", file: "audit", tasks: "pro.txt" },
      "",
      tasks,
      fixture(),
    );
    expect(parseLines(r.lines).map((o) => [o["task_id"], o["validity"], o["dataset_revision"]])).toEqual([
      [ID("r1-aaaa111-vnan"), "valid", revisionOf([ID("r1-aaaa111-vnan"), ID("r3-0bad000-vnan"), "other-1"])],
      [
        ID("r3-0bad000-vnan"),
        "broken",
        revisionOf([ID("r1-aaaa111-vnan"), ID("r3-0bad000-vnan"), "other-1"]),
      ],
    ]);
    expect(r.notes).toContain(
      `8 audited instances outside the task list pro.txt were left out: ${ID("r1-bbbb222-vnan")}, ${ID("r1-cccc333-v9")}, ${ID("r2-dddd444-vnan")}, ${ID("r2-eeee555-vnan")}, ${ID("r2-ffff666-vnan")} and 3 more`,
    );
    expect(r.notes).toContain(
      "1 tasks of the task list are not in the audit (they stay as the export says): other-1",
    );
  });

  test("a claim on a negative control is a conflict → disputed", () => {
    const r = importEdited("CLAIMS.md", (t) => `${t}| \`r1_cccc\` | prose | the refuter's reading holds |\n`);
    const row = parseLines(r.lines).find((o) => o["task_id"] === ID("r1-cccc333-v9"));
    expect(row?.["validity"]).toBe("disputed");
    expect(row?.["note"]).toBe(
      "conflict: CLAIMS.md: claimed (airtight), but COVERAGE.md: AMBIGUOUS, witness class airtight (PROVEN, mechanical spine); and it is a negative control (the refuter killed the split)",
    );
    expect(row?.["evidence"]).toContain("audit/CLAIMS.md#L36");
  });

  test("--dataset-revision is written on every row", () => {
    const r = importEdited("CLAIMS.md", (t) => t, { datasetRevision: "scale:pro-public-731" });
    expect(new Set(parseLines(r.lines).map((o) => o["dataset_revision"]))).toEqual(
      new Set(["scale:pro-public-731"]),
    );
  });

  const S = "audit: unusable SWE-Bench Pro audit\n  ";
  test.each<[string, Name, (t: string) => string, string]>([
    [
      "a .tsv line without a tab",
      "case_instance_ids.tsv",
      (t) => `${t}r9_zzzz instance_x\n`,
      'audit/case_instance_ids.tsv:11: expected "<case>\\t<instance id>", found "r9_zzzz instance_x"',
    ],
    [
      "a case listed twice in the .tsv",
      "case_instance_ids.tsv",
      (t) => `${t}r1_aaaa\tinstance_other\n`,
      "audit/case_instance_ids.tsv:11: case r1_aaaa is listed twice (first on line 1)",
    ],
    [
      "an instance listed for two cases",
      "case_instance_ids.tsv",
      (t) => `${t}r9_zzzz\t${ID("r1-aaaa111-vnan")}\n`,
      `audit/case_instance_ids.tsv:11: instance ${ID("r1-aaaa111-vnan")} is listed for two cases (r1_aaaa on line 1 and r9_zzzz)`,
    ],
    [
      "an empty .tsv",
      "case_instance_ids.tsv",
      () => "\n",
      "audit/case_instance_ids.tsv: no case listed: expected one `<case>\\t<instance id>` line per case",
    ],
    [
      "a case of the .tsv with no COVERAGE.md row and not known bad",
      "case_instance_ids.tsv",
      (t) => `${t}r9_zzzz\tinstance_acme__r9-zzzz-vnan\n`,
      "audit/case_instance_ids.tsv:11: case r9_zzzz has no row in COVERAGE.md and its instance is not in KNOWN_BAD.md: it cannot be labelled",
    ],
    [
      "a KNOWN_BAD.md verdict other than gold NOT resolved",
      "KNOWN_BAD.md",
      (t) => t.replace("gold NOT resolved |", "gold resolved |"),
      'audit/KNOWN_BAD.md:7: grader verdict: expected "gold NOT resolved", found "gold resolved"',
    ],
    [
      "a KNOWN_BAD.md instance not in the .tsv",
      "KNOWN_BAD.md",
      (t) => `${t}| \`instance_acme__nowhere\` | gold NOT resolved |\n`,
      'audit/KNOWN_BAD.md:8: instance "instance_acme__nowhere" is not in case_instance_ids.tsv',
    ],
    [
      "a KNOWN_BAD.md table with another header",
      "KNOWN_BAD.md",
      (t) => t.replace("| instance_id | grader verdict |", "| instance | verdict |"),
      "audit/KNOWN_BAD.md:5: expected one table with the header | instance_id | grader verdict |, found 1 table(s) (first header: | instance | verdict |)",
    ],
    [
      "an unknown COVERAGE.md verdict",
      "COVERAGE.md",
      (t) => t.replace("| r1_aaaa | ENTAILED |", "| r1_aaaa | PLAUSIBLE |"),
      'audit/COVERAGE.md:7: case r1_aaaa: verdict "PLAUSIBLE": expected one of ENTAILED, DETERMINED-codebase, AMBIGUOUS, MISDETERMINED',
    ],
    [
      "an unknown witness class",
      "COVERAGE.md",
      (t) => t.replace("| hypothesis |", "| hunch |"),
      'audit/COVERAGE.md:12: case r2_ffff: witness class "hunch": expected one of airtight, prose-affirmative, plural-both, prose-plural, codebase-plural, misdetermined, hypothesis, (pending), determined',
    ],
    [
      "ENTAILED with a witness class",
      "COVERAGE.md",
      (t) => t.replace("| r1_aaaa | ENTAILED | 4/4 | 0 |  |", "| r1_aaaa | ENTAILED | 4/4 | 0 | airtight |"),
      'audit/COVERAGE.md:7: case r1_aaaa: verdict ENTAILED with witness class "airtight": expected none',
    ],
    [
      "a COVERAGE.md case not in the .tsv",
      "COVERAGE.md",
      (t) => `${t}| r9_zzzz | ENTAILED | 1/1 | 0 |  | [t](x) |\n`,
      'audit/COVERAGE.md:16: case "r9_zzzz" is not in case_instance_ids.tsv',
    ],
    [
      "a COVERAGE.md case listed twice",
      "COVERAGE.md",
      (t) => `${t}| r1_aaaa | ENTAILED | 1/1 | 0 |  | [t](x) |\n`,
      "audit/COVERAGE.md:16: case r1_aaaa is listed twice (first on line 7)",
    ],
    [
      "a COVERAGE.md row with a cell too many",
      "COVERAGE.md",
      (t) => t.replace("| r1_aaaa | ENTAILED |", "| r1_aaaa | ENTAILED | extra |"),
      "audit/COVERAGE.md:7: expected 6 cells (case | verdict | cov | GAP | witness class | attribution), found 7",
    ],
    [
      "a CLAIMS.md table under an unknown heading",
      "CLAIMS.md",
      (t) => t.replace("### misdetermined (1)", "### mystery (1)"),
      'audit/CLAIMS.md:16: a table under the heading "### mystery (1) — codebase determines one value, gold pins another": expected one of the sections "### airtight …", "### misdetermined …", "### codebase-plural …", "### graded-patch …", "### hand-verified …", "## Tier 2 …", "## Upstream debate …", "## Negative controls …"',
    ],
    [
      "a heading whose count is not its table's",
      "CLAIMS.md",
      (t) => t.replace("### airtight (2)", "### airtight (3)"),
      "audit/CLAIMS.md:7: the heading says 3 rows, the table below it has 2",
    ],
    [
      "a claim whose instance does not match the .tsv",
      "CLAIMS.md",
      (t) => t.replace("`instance_acme__r1-cccc…`", "`instance_acme__r1-cccd…`"),
      'audit/CLAIMS.md:11: case r1_cccc: instance "instance_acme__r1-cccd…" does not match instance_acme__r1-cccc333-v9 (case_instance_ids.tsv line 3)',
    ],
    [
      "a claim on an unknown case",
      "CLAIMS.md",
      (t) => t.replace("| `r2_dddd` |", "| `r2_dddx` |"),
      'audit/CLAIMS.md:18: case "r2_dddx" is not in case_instance_ids.tsv',
    ],
    [
      "a case claimed twice",
      "CLAIMS.md",
      (t) =>
        t.replace(
          "| `r2_dddd` | `instance_acme__r2-dddd444-vnan` |",
          "| `r1_cccc` | `instance_acme__r1-cccc333-v9` |",
        ),
      "audit/CLAIMS.md:18: case r1_cccc is claimed twice (first on line 11)",
    ],
    [
      "a claim table without the instance column",
      "CLAIMS.md",
      (t) => t.replace("| case | instance | graded behavior |", "| case | id | graded behavior |"),
      "audit/CLAIMS.md:16: expected the header to start with | case | instance |, found | case | id | graded behavior | receipts |",
    ],
    [
      "a stated total that the claim tables do not have",
      "CLAIMS.md",
      (t) => t.replace("All **4 claimable cases**", "All **5 claimable cases**"),
      "audit/CLAIMS.md:3: the text says 5 claimable cases, the claim tables have 4",
    ],
    [
      "a table row outside a table",
      "CLAIMS.md",
      (t) => t.replace("## Tier 1 — mechanical spine\n", "## Tier 1 — mechanical spine\n| stray |\n"),
      "audit/CLAIMS.md:6: a table row outside a table: expected a header row followed by a |---| line",
    ],
  ])("error: %s", async (_what, name, edit, problem) => {
    expect(await errorOf(name, edit)).toBe(`${S}${problem}`);
  });

  test("the inputs -o must not replace are the directory's four files and --tasks", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "pro-audit-inputs-"));
    mkdirSync(join(cwd, "audit"));
    expect(await importInputs({ kind: "swebench-pro-audit", file: "audit//", tasks: "t.txt", cwd })).toEqual([
      "audit/KNOWN_BAD.md",
      "audit/COVERAGE.md",
      "audit/CLAIMS.md",
      "audit/case_instance_ids.tsv",
      "t.txt",
    ]);
    expect(await importInputs({ kind: "swebench-pro", file: "r.json" })).toEqual(["r.json"]);
  });

  test("FILE must be a directory holding the four files", async () => {
    expect(
      await inputErrorOf(() =>
        runImport({ kind: "swebench-pro-audit", file: `${DIR}/COVERAGE.md`, cwd: repoRoot }),
      ),
    ).toBe(
      `${DIR}/COVERAGE.md: swebench-pro-audit reads a directory (holding KNOWN_BAD.md, COVERAGE.md, CLAIMS.md, case_instance_ids.tsv), but this is a regular file`,
    );
    expect(
      await inputErrorOf(() =>
        runImport({ kind: "swebench-pro-audit", file: "test/importers", cwd: repoRoot }),
      ),
    ).toBe("cannot read the swebench-pro-audit file test/importers/KNOWN_BAD.md: no such file");
    expect(
      await inputErrorOf(() => runImport({ kind: "swebench-pro-audit", file: "no/such/dir", cwd: repoRoot })),
    ).toBe("cannot read the swebench-pro-audit directory no/such/dir: no such file");
  });
});
