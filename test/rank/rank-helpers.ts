/** Small several-model exports for the rank tests, written as the reader reads them. */
import { gatePolicy } from "../../src/core/gate.js";
import { runRank } from "../../src/core/rank/rank.js";
import type { RankReport } from "../../src/core/rank/rank-types.js";
import { readRankInputs, type RankInputs } from "../../src/read/read-models.js";
import { DEFAULT_POLICY, modelsLines, writeLines, type ModelsTaskSpec } from "../helpers/export-writer.js";
import { prng } from "../helpers/prng.js";

export type Outcome = "pass" | "fail" | "infra_error";

/** A task of a several-model export (export-writer.ts writes its rows). */
export type MultiTask = ModelsTaskSpec;

export function multiLines(tasks: readonly MultiTask[], only?: ReadonlySet<string>): string[] {
  return modelsLines(tasks, only);
}

export function writeMulti(
  dir: string,
  tasks: readonly MultiTask[],
  name = "results.jsonl",
  only?: ReadonlySet<string>,
): string {
  return writeLines(dir, modelsLines(tasks, only), name);
}

export function policyWith(floor: number, extra = ""): string {
  return DEFAULT_POLICY.replace('common_valid_tasks: ">= 500"', `common_valid_tasks: ">= ${floor}"`) + extra;
}

/** Random tasks for `models`: each model passes with its own rate, sometimes has no row. */
export function randomTasks(
  seed: number,
  models: readonly string[],
  n: number,
  opts: { attempts?: number; missing?: number; open?: number; infra?: number } = {},
): MultiTask[] {
  const rnd = prng(seed);
  const skill = models.map(() => 0.2 + 0.6 * rnd());
  const out: MultiTask[] = [];
  for (let t = 0; t < n; t++) {
    const u = rnd();
    const open = opts.open ?? 0.25;
    const validity =
      u < open / 2 ? "disputed" : u < open ? "unreviewed" : u < open + 0.05 ? "broken" : "valid";
    const results: Record<string, Outcome[]> = {};
    models.forEach((m, k) => {
      if (rnd() < (opts.missing ?? 0.03)) return;
      const attempts = 1 + Math.floor(rnd() * (opts.attempts ?? 1));
      results[m] = Array.from({ length: attempts }, () =>
        opts.infra !== undefined && rnd() < opts.infra
          ? "infra_error"
          : rnd() < (skill[k] as number)
            ? "pass"
            : "fail",
      );
    });
    out.push({ id: `task-${String(t).padStart(4, "0")}`, validity, results, cluster: `repo-${t % 7}` });
  }
  return out;
}

export async function rankInputs(
  results: string,
  policyText: string,
  models: readonly string[] | null,
  reviews: readonly string[] = [],
): Promise<RankInputs> {
  return readRankInputs({
    results: [results],
    reviews,
    policy: { path: "policy.yaml", text: policyText, source: "file", lastCommit: null },
    models,
    today: "2026-11-29",
  });
}

export async function rankOf(
  results: string,
  policyText: string,
  models: readonly string[] | null,
  reference: string | null = null,
): Promise<RankReport> {
  const inputs = await rankInputs(results, policyText, models);
  return runRank(inputs.data, inputs.policy, { reference, toolVersion: "test" });
}

export function policyOf(text: string) {
  return gatePolicy(
    {
      text,
      source: { path: "policy.yaml", sha256: "0", source: "file", lastCommit: null },
      headText: null,
      history: null,
    },
    "2026-11-29",
  );
}
