/**
 * The third-party SWE-Bench Pro validity audit (kimjune01/swebench-pro-audit) → a SPEC §1.2
 * reviews file. FILE is the audit's directory; four files of it are read:
 *
 *   KNOWN_BAD.md           instances whose gold patch fails the official grader     → broken
 *   COVERAGE.md            every public case: screen verdict and witness class
 *   CLAIMS.md              the cases the audit claims are defective, by section
 *   case_instance_ids.tsv  `<case>\t<instance id>`, one line per data/cases/<case>/instance_id.txt
 *
 * Rule, per case of the .tsv (every case gets exactly one label):
 *   instance in KNOWN_BAD.md                                     → broken
 *   claimed in CLAIMS.md and COVERAGE.md agrees (the verdict is AMBIGUOUS or MISDETERMINED and its
 *     witness class is the one the claim's section names)         → broken (--claimed disputed)
 *   claimed, and COVERAGE.md disagrees (or the case is also a negative control) → disputed
 *   COVERAGE.md ENTAILED or DETERMINED-codebase, not claimed        → valid
 *   COVERAGE.md AMBIGUOUS or MISDETERMINED, not claimed             → disputed
 * A case of the .tsv with no COVERAGE.md row (and not known bad), a row naming an unknown case, an
 * unknown verdict, witness class or section, a table whose header or row count is not the one
 * expected: each is an error naming the file and line.
 *
 * Lines are split at "\n" only (a trailing "\r" is dropped): CLAIMS.md quotes PR comments that
 * hold lone carriage returns inside a table row.
 */
import { InputError, type InputProblem } from "../core/errors.js";
import type { Validity } from "../core/model.js";
import { compareIds, inDirectory, taskListReviewNotes } from "./common.js";
import type { ClaimedRule, ImporterInput, ReviewDraftRow, ReviewsDraft } from "./types.js";

/** The files read from the audit directory, by role. */
export const PRO_AUDIT_FILES = {
  knownBad: "KNOWN_BAD.md",
  coverage: "COVERAGE.md",
  claims: "CLAIMS.md",
  caseIds: "case_instance_ids.tsv",
} as const;

export const DEFAULT_PRO_AUDIT_REVIEWER = "swebench-pro-audit";

const VALID_VERDICTS = ["ENTAILED", "DETERMINED-codebase"] as const;
const FLAGGED_VERDICTS = ["AMBIGUOUS", "MISDETERMINED"] as const;
/** Witness classes of COVERAGE.md, with what its header says they are. */
const WITNESS_CLASSES: Readonly<Record<string, string>> = {
  airtight: "PROVEN, mechanical spine",
  "prose-affirmative": "PROVEN, mechanical spine",
  "plural-both": "PROVEN, two-expert",
  "prose-plural": "PROVEN, two-expert",
  "codebase-plural": "PROVEN, two-expert",
  misdetermined: "codebase determines another value",
  hypothesis: "raters pending",
  "(pending)": "no witness yet",
  determined: "witness found the choice determined",
};

interface SectionSpec {
  /** How the heading starts. */
  readonly heading: string;
  readonly name: string;
  /** Claim sections: the COVERAGE.md witness classes that agree with a claim of this section. */
  readonly agrees?: readonly string[];
  readonly negativeControl?: boolean;
}

const CLAIMS_SECTIONS: readonly SectionSpec[] = [
  { heading: "### airtight", name: "airtight", agrees: ["airtight"] },
  { heading: "### misdetermined", name: "misdetermined", agrees: ["misdetermined"] },
  { heading: "### codebase-plural", name: "codebase-plural", agrees: ["codebase-plural"] },
  { heading: "### graded-patch", name: "graded-patch", agrees: ["prose-affirmative"] },
  { heading: "### hand-verified", name: "hand-verified", agrees: ["prose-affirmative"] },
  { heading: "## Tier 2", name: "two-expert split", agrees: ["plural-both", "prose-plural"] },
  { heading: "## Upstream debate", name: "upstream debate" },
  { heading: "## Negative controls", name: "negative control", negativeControl: true },
];

const COVERAGE_HEADER = ["case", "verdict", "cov", "GAP", "witness class", "attribution"];
const KNOWN_BAD_HEADER = ["instance_id", "grader verdict"];
const KNOWN_BAD_VERDICT = "gold NOT resolved";

/** Problems over the four files, thrown as one InputError. */
class AuditProblems {
  readonly list: InputProblem[] = [];
  add(file: string, line: number | undefined, message: string): void {
    this.list.push({ location: line === undefined ? { file } : { file, line }, message });
  }
  throwIfAny(summary: string): void {
    if (this.list.length > 0) throw new InputError(summary, this.list, this.list.length);
  }
}

interface Line {
  readonly n: number;
  readonly text: string;
}

function linesOf(text: string): Line[] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return body.split("\n").map((t, i) => ({ n: i + 1, text: t.endsWith("\r") ? t.slice(0, -1) : t }));
}

interface Row {
  readonly n: number;
  readonly cells: readonly string[];
}
interface Table {
  /** The nearest heading above the table ("" when none). */
  readonly heading: string;
  readonly headingLine: number;
  readonly headerLine: number;
  readonly header: readonly string[];
  readonly rows: Row[];
}

/** `| a | b |` → ["a", "b"]; `` `x` `` cells are unwrapped. */
function cellsOf(text: string): string[] {
  const t = text.trim();
  const inner = t.endsWith("|") && t.length > 1 ? t.slice(1, -1) : t.slice(1);
  return inner.split("|").map((c) => c.trim().replace(/^`([^`]*)`$/, "$1"));
}

/** The GitHub-flavoured Markdown tables of a file, each with its heading. */
function tablesOf(file: string, lines: readonly Line[], problems: AuditProblems): Table[] {
  const tables: Table[] = [];
  let heading = "";
  let headingLine = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as Line;
    if (line.text.startsWith("#")) {
      heading = line.text.trim();
      headingLine = line.n;
      continue;
    }
    if (!line.text.trimStart().startsWith("|")) continue;
    const sep = lines[i + 1];
    if (sep === undefined || !/^\s*\|(\s*:?-+:?\s*\|)+\s*$/.test(sep.text)) {
      problems.add(
        file,
        line.n,
        "a table row outside a table: expected a header row followed by a |---| line",
      );
      continue;
    }
    const header = cellsOf(line.text);
    const table: Table = { heading, headingLine, headerLine: line.n, header, rows: [] };
    i += 2;
    for (; i < lines.length; i++) {
      const r = lines[i] as Line;
      if (!r.text.trimStart().startsWith("|")) break;
      const cells = cellsOf(r.text);
      if (cells.length !== header.length) {
        problems.add(
          file,
          r.n,
          `expected ${header.length} cells (${header.join(" | ")}), found ${cells.length}`,
        );
        continue;
      }
      table.rows.push({ n: r.n, cells });
    }
    i -= 1;
    tables.push(table);
  }
  return tables;
}

/** The rows of a file that must hold exactly one table, with this header ([] and a problem if not). */
function onlyTableRows(
  file: string,
  text: string,
  header: readonly string[],
  problems: AuditProblems,
): readonly Row[] {
  const tables = tablesOf(file, linesOf(text), problems);
  const [first] = tables;
  const same = first !== undefined && first.header.join("|") === header.join("|");
  if (tables.length === 1 && same) return first.rows;
  problems.add(
    file,
    first?.headerLine,
    `expected one table with the header | ${header.join(" | ")} |, found ${tables.length} table(s)` +
      (first !== undefined ? ` (first header: | ${first.header.join(" | ")} |)` : ""),
  );
  return [];
}

interface CoverageRow {
  readonly line: number;
  readonly verdict: string;
  readonly witness: string;
}
interface Claim {
  readonly line: number;
  readonly section: SectionSpec;
}
interface Label {
  readonly validity: Validity;
  /** "<validity>: <why>", counted in the notes. */
  readonly reason: string;
  readonly note: string;
  readonly evidence: string[];
}

/** The four files as messages name them. */
interface AuditFiles {
  readonly knownBad: string;
  readonly coverage: string;
  readonly claims: string;
  readonly caseIds: string;
}

/** The cases of case_instance_ids.tsv: case name → instance id, and instance id → case name. */
interface Cases {
  readonly instanceOf: Map<string, { id: string; line: number }>;
  readonly caseOf: Map<string, { name: string; line: number }>;
}

/** case_instance_ids.tsv: the case universe and the instance ids. */
function readCaseIds(text: string, F: AuditFiles, problems: AuditProblems): Cases {
  const instanceOf = new Map<string, { id: string; line: number }>();
  const caseOf = new Map<string, { name: string; line: number }>();
  for (const { n, text: line } of linesOf(text)) {
    if (line.trim() === "") continue;
    const parts = line.split("\t").map((p) => p.trim());
    const [name, id] = parts;
    if (parts.length !== 2 || name === undefined || id === undefined || name === "" || id === "") {
      problems.add(F.caseIds, n, `expected "<case>\\t<instance id>", found ${JSON.stringify(line)}`);
      continue;
    }
    const firstCase = instanceOf.get(name);
    const firstId = caseOf.get(id);
    if (firstCase !== undefined) {
      problems.add(F.caseIds, n, `case ${name} is listed twice (first on line ${firstCase.line})`);
    } else if (firstId !== undefined) {
      problems.add(
        F.caseIds,
        n,
        `instance ${id} is listed for two cases (${firstId.name} on line ${firstId.line} and ${name})`,
      );
    } else {
      instanceOf.set(name, { id, line: n });
      caseOf.set(id, { name, line: n });
    }
  }
  if (instanceOf.size === 0 && problems.list.length === 0) {
    problems.add(F.caseIds, undefined, "no case listed: expected one `<case>\\t<instance id>` line per case");
  }
  return { instanceOf, caseOf };
}

/** KNOWN_BAD.md: one table of instance ids whose gold patch fails the grader (id → line). */
function readKnownBad(
  text: string,
  F: AuditFiles,
  cases: Cases,
  problems: AuditProblems,
): Map<string, number> {
  const knownBad = new Map<string, number>();
  for (const row of onlyTableRows(F.knownBad, text, KNOWN_BAD_HEADER, problems)) {
    const [id = "", verdict = ""] = row.cells;
    if (verdict !== KNOWN_BAD_VERDICT) {
      problems.add(
        F.knownBad,
        row.n,
        `grader verdict: expected "${KNOWN_BAD_VERDICT}", found ${JSON.stringify(verdict)}`,
      );
    } else if (!cases.caseOf.has(id)) {
      problems.add(F.knownBad, row.n, `instance ${JSON.stringify(id)} is not in ${PRO_AUDIT_FILES.caseIds}`);
    } else if (knownBad.has(id)) {
      problems.add(F.knownBad, row.n, `instance ${id} is listed twice (first on line ${knownBad.get(id)})`);
    } else knownBad.set(id, row.n);
  }
  return knownBad;
}

/** COVERAGE.md: one table, every case with its verdict and witness class. */
function readCoverage(
  text: string,
  F: AuditFiles,
  cases: Cases,
  problems: AuditProblems,
): Map<string, CoverageRow> {
  const coverage = new Map<string, CoverageRow>();
  for (const row of onlyTableRows(F.coverage, text, COVERAGE_HEADER, problems)) {
    const [name = "", verdict = "", , , witness = ""] = row.cells;
    const wrong = coverageProblem(verdict, witness);
    if (!cases.instanceOf.has(name)) {
      problems.add(F.coverage, row.n, `case ${JSON.stringify(name)} is not in ${PRO_AUDIT_FILES.caseIds}`);
    } else if (coverage.has(name)) {
      problems.add(
        F.coverage,
        row.n,
        `case ${name} is listed twice (first on line ${coverage.get(name)?.line})`,
      );
    } else if (wrong !== undefined) {
      problems.add(F.coverage, row.n, `case ${name}: ${wrong}`);
    } else coverage.set(name, { line: row.n, verdict, witness });
  }
  return coverage;
}

/** What CLAIMS.md says: the claims, the evidence lines of the other sections, the negative controls. */
interface ClaimsFile {
  readonly claims: Map<string, Claim>;
  readonly extraEvidence: Map<string, number[]>;
  readonly negativeControls: Set<string>;
}

/** The section a CLAIMS.md table stands under, with a checked header; undefined (and a problem) if not. */
function claimsSection(table: Table, F: AuditFiles, problems: AuditProblems): SectionSpec | undefined {
  const section = CLAIMS_SECTIONS.find((s) => table.heading.startsWith(s.heading));
  if (section === undefined) {
    problems.add(
      F.claims,
      table.headerLine,
      `a table under the heading ${JSON.stringify(table.heading)}: expected one of the sections ` +
        CLAIMS_SECTIONS.map((s) => `"${s.heading} …"`).join(", "),
    );
    return undefined;
  }
  const claimSection = section.agrees !== undefined;
  if (table.header[0] !== "case" || (claimSection && table.header[1] !== "instance")) {
    problems.add(
      F.claims,
      table.headerLine,
      `expected the header to start with | case |${claimSection ? " instance |" : ""}, found | ${table.header.join(" | ")} |`,
    );
    return undefined;
  }
  const stated = /\((\d+)\)/.exec(table.heading)?.[1];
  if (stated !== undefined && Number(stated) !== table.rows.length) {
    problems.add(
      F.claims,
      table.headingLine,
      `the heading says ${stated} rows, the table below it has ${table.rows.length}`,
    );
  }
  return section;
}

/** CLAIMS.md: tables under known headings; claim sections label, the others add evidence. */
function readClaims(text: string, F: AuditFiles, cases: Cases, problems: AuditProblems): ClaimsFile {
  const out: ClaimsFile = { claims: new Map(), extraEvidence: new Map(), negativeControls: new Set() };
  let claimLines = 0;
  const lines = linesOf(text);
  for (const table of tablesOf(F.claims, lines, problems)) {
    const section = claimsSection(table, F, problems);
    if (section === undefined) continue;
    for (const row of table.rows) {
      const [name = "", instance = ""] = row.cells;
      const inst = cases.instanceOf.get(name);
      if (inst === undefined) {
        problems.add(F.claims, row.n, `case ${JSON.stringify(name)} is not in ${PRO_AUDIT_FILES.caseIds}`);
        continue;
      }
      if (section.agrees === undefined) {
        if (section.negativeControl === true) out.negativeControls.add(name);
        out.extraEvidence.set(name, [...(out.extraEvidence.get(name) ?? []), row.n]);
        continue;
      }
      // The instance column is the id cut short with "…": it must be a prefix of the listed id.
      const prefix = instance.replace(/…$/, "");
      if (prefix === "" || !inst.id.startsWith(prefix)) {
        problems.add(
          F.claims,
          row.n,
          `case ${name}: instance ${JSON.stringify(instance)} does not match ${inst.id} (${PRO_AUDIT_FILES.caseIds} line ${inst.line})`,
        );
        continue;
      }
      const first = out.claims.get(name);
      if (first !== undefined) {
        problems.add(F.claims, row.n, `case ${name} is claimed twice (first on line ${first.line})`);
        continue;
      }
      out.claims.set(name, { line: row.n, section });
      claimLines += 1;
    }
  }
  const total = /All \*\*(\d+) claimable cases\*\*/.exec(lines.map((l) => l.text).join("\n"));
  if (total?.[1] !== undefined && Number(total[1]) !== claimLines && problems.list.length === 0) {
    const at = lines.find((l) => l.text.includes(total[0]))?.n;
    problems.add(
      F.claims,
      at,
      `the text says ${total[1]} claimable cases, the claim tables have ${claimLines}`,
    );
  }
  return out;
}

const at = (file: string, line: number) => `${file}#L${line}`;

/** The label of a case whose instance KNOWN_BAD.md lists: broken. */
function knownBadLabel(
  F: AuditFiles,
  line: number,
  cov: CoverageRow | undefined,
  claim: Claim | undefined,
): Label {
  let note = `${PRO_AUDIT_FILES.knownBad}: ${KNOWN_BAD_VERDICT} (the gold patch fails the official grader)`;
  const evidence = [at(F.knownBad, line)];
  if (cov !== undefined) {
    note += `; ${PRO_AUDIT_FILES.coverage}: ${describeCoverage(cov)}`;
    evidence.push(at(F.coverage, cov.line));
  }
  if (claim !== undefined) evidence.push(at(F.claims, claim.line));
  return { validity: "broken", reason: `broken: ${PRO_AUDIT_FILES.knownBad}`, note, evidence };
}

/** The label of a case from its COVERAGE.md row and its claim, if any. */
function coverageLabel(
  F: AuditFiles,
  claimedRule: ClaimedRule,
  cov: CoverageRow,
  claim: Claim | undefined,
  negativeControl: boolean,
): Label {
  const covText = `${PRO_AUDIT_FILES.coverage}: ${describeCoverage(cov)}`;
  if (claim !== undefined) {
    const evidence = [at(F.claims, claim.line), at(F.coverage, cov.line)];
    const claimText = `${PRO_AUDIT_FILES.claims}: claimed (${claim.section.name})`;
    const flagged = (FLAGGED_VERDICTS as readonly string[]).includes(cov.verdict);
    if (flagged && (claim.section.agrees ?? []).includes(cov.witness) && !negativeControl) {
      return {
        validity: claimedRule,
        reason: `${claimedRule}: claimed, ${PRO_AUDIT_FILES.coverage} agrees`,
        note: `${claimText}; ${covText} agrees`,
        evidence,
      };
    }
    return {
      validity: "disputed",
      reason: `disputed: claimed, ${PRO_AUDIT_FILES.coverage} disagrees`,
      note:
        `conflict: ${claimText}, but ${covText}` +
        (negativeControl ? "; and it is a negative control (the refuter killed the split)" : ""),
      evidence,
    };
  }
  const evidence = [at(F.coverage, cov.line)];
  if ((VALID_VERDICTS as readonly string[]).includes(cov.verdict)) {
    return { validity: "valid", reason: `valid: ${cov.verdict}`, note: covText, evidence };
  }
  return {
    validity: "disputed",
    reason: `disputed: ${cov.verdict === "AMBIGUOUS" ? cov.witness : cov.verdict}, not claimed`,
    note: `${covText}; not claimed in ${PRO_AUDIT_FILES.claims}`,
    evidence,
  };
}

/** The notes of the reviews file: the rule, the labels' counts by reason, the caveat, the task list, the reviewer. */
function auditNotes(
  input: ImporterInput,
  labelled: {
    rows: readonly ReviewDraftRow[];
    counts: Record<Validity, number>;
    why: Map<string, number>;
    outside: string[];
  },
  caseOf: Cases["caseOf"],
  claimedRule: ClaimedRule,
  reviewer: string,
): string[] {
  const { opts, tasks } = input;
  const { rows, counts, why, outside } = labelled;
  const notes: string[] = [];
  notes.push(
    `rule: ${PRO_AUDIT_FILES.knownBad} → broken; claimed in ${PRO_AUDIT_FILES.claims} with ${PRO_AUDIT_FILES.coverage} agreeing → ` +
      `${claimedRule}${opts.claimed === undefined ? " (default; --claimed disputed to count the audit's claims as disputed)" : " (--claimed)"}; ` +
      `claimed but ${PRO_AUDIT_FILES.coverage} disagrees → disputed; ENTAILED, DETERMINED-codebase → valid; ` +
      `AMBIGUOUS, MISDETERMINED not claimed → disputed`,
  );
  const breakdown = (label: Validity) =>
    [...why]
      .filter(([k]) => k.startsWith(`${label}: `))
      .sort(([a], [b]) => compareIds(a, b))
      .map(([k, v]) => `${v} ${k.slice(label.length + 2)}`)
      .join(", ");
  notes.push(
    `labels: ${rows.length} tasks: ${counts.valid} valid (${breakdown("valid")}), ` +
      `${counts.broken} broken (${breakdown("broken")}), ${counts.disputed} disputed (${breakdown("disputed")})`,
  );
  notes.push(
    "the audit is third-party, single-author and LLM-assisted (its raters are models, not human panels): " +
      "a broken label from CLAIMS.md is the audit's claim, not a confirmed defect",
  );
  for (const note of taskListReviewNotes(tasks, outside, caseOf, {
    outside: "audited instances",
    unlabelled: "are not in the audit",
  }))
    notes.push(note);
  notes.push(`reviewer: ${reviewer}${opts.reviewer === undefined ? " (default; --reviewer)" : ""}`);
  return notes;
}

export function importSwebenchProAudit(input: ImporterInput): ReviewsDraft {
  const { opts, tasks, files } = input;
  const dir = opts.file.replace(/\/+$/, "") || "/";
  const shown = (name: string) => inDirectory(opts.file, name);
  const textOf = (name: string): string => {
    const t = files?.[name];
    // A caller bug (runImport reads every file of PRO_AUDIT_FILES), not a user error.
    if (t === undefined) throw new Error(`${shown(name)} was not read before the import`);
    return t;
  };
  const F: AuditFiles = {
    knownBad: shown(PRO_AUDIT_FILES.knownBad),
    coverage: shown(PRO_AUDIT_FILES.coverage),
    claims: shown(PRO_AUDIT_FILES.claims),
    caseIds: shown(PRO_AUDIT_FILES.caseIds),
  };
  const claimedRule: ClaimedRule = opts.claimed ?? "broken";
  const reviewer = opts.reviewer ?? DEFAULT_PRO_AUDIT_REVIEWER;
  const problems = new AuditProblems();
  const summary = `${dir}: unusable SWE-Bench Pro audit`;

  const cases = readCaseIds(textOf(PRO_AUDIT_FILES.caseIds), F, problems);
  problems.throwIfAny(summary);
  const knownBad = readKnownBad(textOf(PRO_AUDIT_FILES.knownBad), F, cases, problems);
  const coverage = readCoverage(textOf(PRO_AUDIT_FILES.coverage), F, cases, problems);
  const { claims, extraEvidence, negativeControls } = readClaims(
    textOf(PRO_AUDIT_FILES.claims),
    F,
    cases,
    problems,
  );
  // A bad row above would show again below as a case without a label: stop at the first cause.
  problems.throwIfAny(summary);

  // Every case of the listing gets one label.
  const rows: ReviewDraftRow[] = [];
  const outside: string[] = [];
  const counts: Record<Validity, number> = { unreviewed: 0, valid: 0, broken: 0, disputed: 0 };
  /** Counts by the reason of the label ("valid: ENTAILED", …), for the notes. */
  const why = new Map<string, number>();
  for (const [name, inst] of cases.instanceOf) {
    const bad = knownBad.get(inst.id);
    const cov = coverage.get(name);
    const claim = claims.get(name);
    const label =
      bad !== undefined
        ? knownBadLabel(F, bad, cov, claim)
        : cov !== undefined
          ? coverageLabel(F, claimedRule, cov, claim, negativeControls.has(name))
          : undefined;
    if (label === undefined) {
      problems.add(
        F.caseIds,
        inst.line,
        `case ${name} has no row in ${PRO_AUDIT_FILES.coverage} and its instance is not in ${PRO_AUDIT_FILES.knownBad}: it cannot be labelled`,
      );
      continue;
    }
    if (tasks !== undefined && !tasks.set.has(inst.id)) {
      outside.push(inst.id);
      continue;
    }
    const evidence = [
      ...label.evidence,
      ...(extraEvidence.get(name) ?? []).map((n) => at(F.claims, n)),
      at(F.caseIds, inst.line),
    ];
    counts[label.validity] += 1;
    why.set(label.reason, (why.get(label.reason) ?? 0) + 1);
    rows.push({ task_id: inst.id, validity: label.validity, reviewer, evidence, note: label.note });
  }
  problems.throwIfAny(summary);

  const notes = auditNotes(input, { rows, counts, why, outside }, cases.caseOf, claimedRule, reviewer);
  return {
    rows,
    taskIds: tasks?.ids ?? [...cases.caseOf.keys()],
    taskIdsFrom: tasks ? `the task list ${tasks.file}` : F.caseIds,
    notes,
  };
}

/** Why a COVERAGE.md verdict / witness class pair is not one this importer knows, or undefined. */
function coverageProblem(verdict: string, witness: string): string | undefined {
  if ((VALID_VERDICTS as readonly string[]).includes(verdict)) {
    return witness === ""
      ? undefined
      : `verdict ${verdict} with witness class ${JSON.stringify(witness)}: expected none`;
  }
  if (verdict === "MISDETERMINED") {
    return witness === "misdetermined"
      ? undefined
      : `verdict MISDETERMINED with witness class ${JSON.stringify(witness)}: expected misdetermined`;
  }
  if (verdict === "AMBIGUOUS") {
    return witness in WITNESS_CLASSES
      ? undefined
      : `witness class ${JSON.stringify(witness)}: expected one of ${Object.keys(WITNESS_CLASSES).join(", ")}`;
  }
  return `verdict ${JSON.stringify(verdict)}: expected one of ${[...VALID_VERDICTS, ...FLAGGED_VERDICTS].join(", ")}`;
}

function describeCoverage(c: CoverageRow): string {
  if (c.witness === "") return c.verdict;
  return `${c.verdict}, witness class ${c.witness} (${WITNESS_CLASSES[c.witness] ?? ""})`;
}
