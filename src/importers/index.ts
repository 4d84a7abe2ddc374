/**
 * `model-gate import`: turn real harness outputs into gate exports (SPEC §1.1) and validity
 * annotation sheets into reviews files (SPEC §1.2). The CLI wires these to stdout / -o OUT and
 * prints `notes` to stderr (its flags: src/cli/import-args.ts). See docs/importers.md.
 */
export { IMPORT_KINDS, type ImportKind, type ImportOptions, type ImportResult } from "./types.js";
export { runImport, importText, importInputs, isResultsKind } from "./run.js";
export { computeDatasetRevision, parseTaskList } from "./common.js";
export { parseCsv } from "./csv.js";
