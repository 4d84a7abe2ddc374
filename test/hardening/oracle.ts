/**
 * An independent model of what the reader must do with a results export and reviews (SPEC §1.1,
 * §1.2), written from the SPEC, not from src/read: split bytes into lines, decide which
 * non-blank lines are valid rows, fold repeated attempts, find conflicts, and predict the Dataset.
 * The fuzzers compare the reader against it: a Dataset is only right when every non-blank line is
 * a valid row, nothing conflicts, and the counts are exactly the oracle's; otherwise the reader
 * must throw an InputError that counts at least every invalid line.
 */

// eslint-disable-next-line no-control-regex
const ID_FORBIDDEN = /[\u0000-\u001f\u007f-\u009f]/;
// eslint-disable-next-line no-control-regex
const NOTE_FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
const VALIDITIES = new Set(["valid", "broken", "disputed", "unreviewed"]);
const RESULTS = ["pass", "fail", "infra_error", "missing"] as const;
const COUNT_FIELDS = ["passes", "fails", "infra_errors", "missing"] as const;
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** A non-blank line of a file: its 1-based number and its text (undefined when not UTF-8). */
export interface SpecLine {
  readonly line: number;
  readonly text: string | undefined;
}

/** Lines as SPEC §1.1 reads them: LF ends a line, a CR before it and a BOM at its start are dropped, blank lines skipped. */
export function specLines(bytes: Uint8Array): SpecLine[] {
  const out: SpecLine[] = [];
  let start = 0;
  let line = 0;
  const take = (end: number): void => {
    line++;
    let s = start;
    let e = end;
    if (e > s && bytes[e - 1] === 0x0d) e--;
    if (e - s >= 3 && bytes[s] === 0xef && bytes[s + 1] === 0xbb && bytes[s + 2] === 0xbf) s += 3;
    let blank = true;
    for (let i = s; i < e; i++) {
      const b = bytes[i];
      if (b !== 0x20 && b !== 0x09 && b !== 0x0d) {
        blank = false;
        break;
      }
    }
    if (blank) return;
    let text: string | undefined;
    try {
      text = utf8.decode(bytes.subarray(s, e));
    } catch {
      text = undefined;
    }
    out.push({ line, text });
  };
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0x0a) {
      take(i);
      start = i + 1;
    }
  }
  if (start < bytes.length) take(bytes.length);
  return out;
}

type Obj = Record<string, unknown>;

function parseObject(text: string | undefined): Obj | undefined {
  if (text === undefined) return undefined;
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return undefined;
  }
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Obj) : undefined;
}

const isId = (v: unknown): v is string =>
  typeof v === "string" && v.length > 0 && v.length <= 4096 && !ID_FORBIDDEN.test(v);
const absent = (v: unknown): boolean => v === undefined || v === null;
const isCount = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v >= 0;
const evidenceItem = (v: unknown): boolean =>
  typeof v === "string" && v.length <= 8192 && !ID_FORBIDDEN.test(v);
function evidenceOk(v: unknown): boolean {
  if (absent(v)) return true;
  if (typeof v === "string") return evidenceItem(v);
  return Array.isArray(v) && v.every(evidenceItem);
}
function evidenceList(v: unknown): string[] {
  if (typeof v === "string") return [v];
  return Array.isArray(v) ? (v as string[]) : [];
}

export interface OracleRow {
  readonly task: string;
  readonly dataset: string;
  readonly harness: string;
  readonly model: string;
  readonly validity: string;
  readonly revision: number;
  /** Index into RESULTS, or -1 for a pre-aggregated row. */
  readonly result: number;
  readonly counts: readonly [number, number, number, number];
  /** `n:1` / `s:1`, or undefined. */
  readonly attempt: string | undefined;
  readonly cluster: string | undefined;
  readonly evidence: readonly string[];
}

/** A valid export row, or undefined for a line the reader must report. */
export function exportRow(text: string | undefined): OracleRow | undefined {
  const o = parseObject(text);
  if (o === undefined) return undefined;
  const { task_id, dataset_revision, harness_revision, model_config, validity, review_revision } = o;
  if (!isId(task_id) || !isId(dataset_revision) || !isId(harness_revision) || !isId(model_config))
    return undefined;
  if (typeof validity !== "string" || !VALIDITIES.has(validity)) return undefined;
  if (!isCount(review_revision)) return undefined;
  if (!evidenceOk(o["evidence"])) return undefined;
  if (!absent(o["cluster"]) && !isId(o["cluster"])) return undefined;
  const given = COUNT_FIELDS.filter((f) => !absent(o[f]));
  let result: number;
  let counts: [number, number, number, number] = [0, 0, 0, 0];
  if (!absent(o["result"])) {
    result = RESULTS.indexOf(o["result"] as (typeof RESULTS)[number]);
    if (result < 0 || given.length > 0) return undefined;
    counts[result] = 1;
  } else {
    if (given.length === 0) return undefined;
    const c = COUNT_FIELDS.map((f) => o[f]);
    if (!c.every(isCount)) return undefined;
    counts = c as [number, number, number, number];
    if (counts.every((n) => n === 0)) return undefined;
    if (!absent(o["attempt"])) return undefined;
    result = -1;
  }
  const a = o["attempt"];
  let attempt: string | undefined;
  if (absent(a)) attempt = undefined;
  else if (typeof a === "number" && Number.isSafeInteger(a)) attempt = `n:${String(a)}`;
  else if (isId(a)) attempt = `s:${a}`;
  else return undefined;
  return {
    task: task_id,
    dataset: dataset_revision,
    harness: harness_revision,
    model: model_config,
    validity,
    revision: review_revision,
    result,
    counts,
    attempt,
    cluster: absent(o["cluster"]) ? undefined : (o["cluster"] as string),
    evidence: evidenceList(o["evidence"]),
  };
}

export interface OracleReview {
  readonly task: string;
  readonly dataset: string;
  readonly validity: string;
  readonly revision: number;
}

/** A valid review row, or undefined. */
export function reviewRow(text: string | undefined): OracleReview | undefined {
  const o = parseObject(text);
  if (o === undefined) return undefined;
  const { task_id, dataset_revision, validity, review_revision, reviewer, note } = o;
  if (!isId(task_id) || !isId(dataset_revision)) return undefined;
  if (typeof validity !== "string" || !VALIDITIES.has(validity)) return undefined;
  if (!isCount(review_revision)) return undefined;
  if (!evidenceOk(o["evidence"])) return undefined;
  if (!absent(reviewer) && !isId(reviewer)) return undefined;
  if (!absent(note) && (typeof note !== "string" || note.length > 65536 || NOTE_FORBIDDEN.test(note)))
    return undefined;
  return { task: task_id, dataset: dataset_revision, validity, revision: review_revision };
}

export interface ExpectedTask {
  readonly datasetRevision: string;
  readonly taskId: string;
  readonly validity: string;
  readonly reviewRevision: number;
  readonly labels: readonly string[];
  readonly cluster: string | undefined;
  readonly baseline: readonly [number, number, number, number] | undefined;
  readonly candidate: readonly [number, number, number, number] | undefined;
}

export interface Expectation {
  /** Non-blank lines of all files. */
  readonly nonBlank: number;
  /** Non-blank lines that are not valid rows. */
  readonly invalid: number;
  /** Conflicts the reader must report (repeated attempt with another result, two labels at the top revision, …). */
  readonly conflicts: number;
  /** A compared model has no valid row (the reader must say so when the files were read whole). */
  readonly modelMissing: boolean;
  /** The predicted Dataset parts, meaningful when invalid, conflicts and modelMissing are all 0/false. */
  readonly tasks: readonly ExpectedTask[];
  readonly duplicates: { readonly baseline: number; readonly candidate: number };
  readonly modelsPresent: readonly string[];
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** What the reader must do with these results and reviews files (given as bytes). */
export function expectation(
  results: readonly Uint8Array[],
  reviews: readonly Uint8Array[],
  baseline: string,
  candidate: string,
): Expectation {
  let nonBlank = 0;
  let invalid = 0;
  let conflicts = 0;
  const rows: OracleRow[] = [];
  for (const bytes of results) {
    for (const l of specLines(bytes)) {
      nonBlank++;
      const r = exportRow(l.text);
      if (r === undefined) invalid++;
      else rows.push(r);
    }
  }
  const revs: (OracleReview & { file: number })[] = [];
  reviews.forEach((bytes, file) => {
    for (const l of specLines(bytes)) {
      nonBlank++;
      const r = reviewRow(l.text);
      if (r === undefined) invalid++;
      else revs.push({ ...r, file });
    }
  });

  interface T {
    ds: string;
    id: string;
    labels: Map<string, { revision: number; validity: string }>;
    clusters: Set<string>;
    models: Map<
      string,
      {
        counts: [number, number, number, number];
        keys: Map<string, { aggregated: boolean; n: number; attempts: Map<string, number> }>;
      }
    >;
  }
  const tasks = new Map<string, T>();
  const present = new Set<string>();
  const dup = { baseline: 0, candidate: 0 };
  for (const r of rows) {
    present.add(r.model);
    const key = JSON.stringify([r.dataset, r.task]);
    let t = tasks.get(key);
    if (t === undefined) {
      t = { ds: r.dataset, id: r.task, labels: new Map(), clusters: new Set(), models: new Map() };
      tasks.set(key, t);
    }
    t.labels.set(`${r.revision}:${r.validity}`, { revision: r.revision, validity: r.validity });
    if (r.cluster !== undefined) t.clusters.add(r.cluster);
    const roles: ("baseline" | "candidate")[] = [];
    if (r.model === baseline) roles.push("baseline");
    if (r.model === candidate) roles.push("candidate");
    for (const role of roles) {
      let m = t.models.get(role);
      if (m === undefined) {
        m = { counts: [0, 0, 0, 0], keys: new Map() };
        t.models.set(role, m);
      }
      let k = m.keys.get(r.harness);
      if (k === undefined) {
        k = { aggregated: r.result < 0, n: 0, attempts: new Map() };
        m.keys.set(r.harness, k);
      }
      k.n++;
      if (r.result < 0) k.aggregated = true;
      if (k.aggregated && k.n > 1) {
        conflicts++;
        continue;
      }
      if (r.attempt !== undefined) {
        const prev = k.attempts.get(r.attempt);
        if (prev !== undefined) {
          if (prev === r.result) dup[role]++;
          else conflicts++;
          continue;
        }
        k.attempts.set(r.attempt, r.result);
      }
      for (let i = 0; i < 4; i++) m.counts[i] = (m.counts[i] ?? 0) + (r.counts[i] ?? 0);
    }
  }
  // A reviews file with valid rows none of which labels a compared task is one problem.
  const matchedRows = new Map<number, number>();
  for (const r of revs) {
    matchedRows.set(r.file, matchedRows.get(r.file) ?? 0);
    const t = tasks.get(JSON.stringify([r.dataset, r.task]));
    if (t === undefined || t.models.size === 0) continue;
    matchedRows.set(r.file, (matchedRows.get(r.file) ?? 0) + 1);
    t.labels.set(`${r.revision}:${r.validity}`, { revision: r.revision, validity: r.validity });
  }
  for (const n of matchedRows.values()) if (n === 0) conflicts++;
  const expected: ExpectedTask[] = [];
  for (const t of tasks.values()) {
    if (t.models.size === 0) continue;
    const labels = [...t.labels.values()];
    const top = Math.max(...labels.map((l) => l.revision));
    const atTop = labels.filter((l) => l.revision === top);
    if (atTop.length > 1) conflicts++;
    if (t.clusters.size > 1) conflicts++;
    expected.push({
      datasetRevision: t.ds,
      taskId: t.id,
      validity: atTop[0]?.validity ?? "?",
      reviewRevision: top,
      labels: labels.map((l) => `${l.revision}:${l.validity}`).sort(),
      cluster: [...t.clusters][0],
      baseline: t.models.get("baseline")?.counts,
      candidate: t.models.get("candidate")?.counts,
    });
  }
  expected.sort((a, b) => cmp(a.datasetRevision, b.datasetRevision) || cmp(a.taskId, b.taskId));
  return {
    nonBlank,
    invalid,
    conflicts,
    modelMissing: !present.has(baseline) || !present.has(candidate),
    tasks: expected,
    duplicates: dup,
    modelsPresent: [...present].sort(cmp),
  };
}
