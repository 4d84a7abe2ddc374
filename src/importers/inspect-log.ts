/**
 * An Inspect AI eval log in either of its formats, chosen by content: the JSON log (`--log-format
 * json`, one document with `eval` and `samples`) or the binary `.eval` log (a ZIP archive holding
 * `header.json` — or, for a run that never finished, `_journal/start.json` — and one
 * `samples/<id>_epoch_<n>.json` per sample). Both read into one shape, each sample with the file
 * and JSON Pointer its values are read from: `LOG.json#/samples/3/…`, or `LOG.eval!/samples/
 * 3_epoch_1.json#/…` (an archive entry, named as jar: URLs name one).
 */
import { MAX_IMPORT_BYTES } from "./caps.js";
import { Problems, compareIds, fileError, isObject, parseJsonFile, typeName } from "./common.js";
import { type InflateBudget, readZipDirectory, readZipEntry } from "./zip.js";

export interface LogSample {
  readonly value: unknown;
  /** The file evidence names: the log, or `LOG.eval!/<entry>`. */
  readonly file: string;
  /** The JSON Pointer of the sample in `file` ("" for an archive entry, which is the sample). */
  readonly ptr: string;
  /** How a problem names the sample's place: a pointer, or the entry and a pointer. */
  readonly field: (sub: string) => string;
}

export interface InspectLog {
  readonly format: "json" | "eval";
  readonly spec: Record<string, unknown>;
  readonly status: unknown;
  readonly samples: readonly LogSample[];
  /** For a `.eval` log: where the eval spec was read (header.json, or the journal's start). */
  readonly specFrom?: string;
}

/** A JSON log's text. */
export function readJsonLog(file: string, text: string): InspectLog {
  const doc = parseJsonFile(file, text);
  const problems: Problems = new Problems(file);
  const summary = `${file}: not a usable Inspect AI eval log`;
  if (!isObject(doc) || !isObject(doc["eval"])) {
    problems.fail(summary, `expected an eval log object with an "eval" object`, { field: "/eval" });
  }
  const samples = doc["samples"];
  if (!Array.isArray(samples)) {
    problems.fail(
      summary,
      `expected a "samples" array, found ${typeName(samples)} (was the log written with log_samples=False, ` +
        `or is it a header-only read?)`,
      { field: "/samples" },
    );
  }
  return {
    format: "json",
    spec: doc["eval"],
    status: doc["status"],
    samples: (samples as unknown[]).map((value, i) => ({
      value,
      file,
      ptr: `/samples/${i}`,
      field: (sub: string) => `/samples/${i}${sub}`,
    })),
  };
}

const SAMPLE_ENTRY = /^samples\/[^/]+\.json$/;

/** A `.eval` log's bytes (a ZIP archive). */
export function readEvalLog(file: string, data: Uint8Array): InspectLog {
  const entries = readZipDirectory(data, file);
  const budget: InflateBudget = { left: MAX_IMPORT_BYTES };
  const byName = new Map(entries.map((e) => [e.name, e]));
  const json = (name: string): unknown => {
    const entry = byName.get(name);
    if (entry === undefined) return undefined;
    const bytes = readZipEntry(data, entry, file, budget);
    return parseJsonFile(`${file}!/${name}`, bytes.toString("utf8"));
  };
  const header = json("header.json");
  const start = header === undefined ? json("_journal/start.json") : undefined;
  const head = header ?? start;
  if (!isObject(head) || !isObject(head["eval"])) {
    fileError(
      file,
      header !== undefined || start !== undefined
        ? `${header !== undefined ? "header.json" : "_journal/start.json"} has no "eval" object`
        : "the archive holds neither header.json nor _journal/start.json: not an Inspect .eval log",
    );
  }
  const names = entries
    .map((e) => e.name)
    .filter((n) => SAMPLE_ENTRY.test(n))
    .sort(compareIds);
  if (names.length === 0) {
    fileError(
      file,
      "the archive holds no samples/*.json entry (was the log written with log_samples=False?)",
    );
  }
  const samples = names.map((name) => ({
    value: json(name),
    file: `${file}!/${name}`,
    ptr: "",
    field: (sub: string) => `${name}#${sub}`,
  }));
  const log: InspectLog = {
    format: "eval",
    spec: head["eval"],
    status: header !== undefined ? head["status"] : "started",
    samples,
    specFrom: header !== undefined ? "header.json" : "_journal/start.json",
  };
  return log;
}
