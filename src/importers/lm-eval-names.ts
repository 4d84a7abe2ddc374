/**
 * lm-evaluation-harness's file names: `--log_samples` writes `samples_<task>_<timestamp>.jsonl`
 * beside `results_<timestamp>.json` (the timestamp `YYYY-MM-DDTHH-MM-SS.ffffff`), which is how
 * the results file of a samples file is found and the task named.
 */
import { basename, dirname } from "node:path";
import { inDirectory } from "./common.js";

/** The role of the results file among an lm-eval import's files. */
export const LM_EVAL_RESULTS = "lm-eval results";

const SAMPLES_NAME = /^samples_(.+)_(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}(?:\.\d+)?)\.jsonl(?:\.gz)?$/;

/** The task and timestamp in a samples file's name, or undefined when it has another name. */
export function lmEvalSamplesName(file: string): { task: string; timestamp: string } | undefined {
  const m = SAMPLES_NAME.exec(basename(file));
  if (m?.[1] === undefined || m[2] === undefined) return undefined;
  return { task: m[1], timestamp: m[2] };
}

/** `results_<timestamp>.json` beside the samples file, as the user would type it. */
export function lmEvalResultsName(samples: string): string | undefined {
  const parts = lmEvalSamplesName(samples);
  if (parts === undefined) return undefined;
  const name = `results_${parts.timestamp}.json`;
  const dir = dirname(samples);
  return dir === "." && !samples.startsWith("./") ? name : inDirectory(dir, name);
}
