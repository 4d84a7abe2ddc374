/**
 * The action's inputs in rank mode (`models` set; docs/rank.md "In the action"). Every input the
 * two modes share is read by evaluate's own readInputs (same paths, globs, workspace checks and
 * messages), given stand-ins for the pair inputs rank mode does not have; the rank inputs are
 * checked here, and all problems are reported together in one InputError.
 */
import { InputError, type InputProblem } from "../core/errors.js";
import { readInputs, splitList, type ActionInputs, type GetInput, type InputEnv } from "./inputs.js";
import { plural } from "../core/words.js";

/** The default check name (and so comment key) in rank mode: not evaluate's, so both gates keep their own. */
export const DEFAULT_RANK_CHECK_NAME = "Model ranking";

/** The rank mode's switch: a non-empty `models` input. */
export function isRankMode(getInput: GetInput): boolean {
  return getInput("models").trim() !== "";
}

export interface RankActionInputs extends ActionInputs {
  readonly rank: {
    /** The model_config ids to rank, in the order given (at least 2, no repeats). */
    readonly models: readonly string[];
    /** The `reference` input; null when empty (the policy's rank.reference may name one). */
    readonly reference: string | null;
    /** The `candidate` input; null when empty (needed by rank.require top_group and above_reference). */
    readonly candidate: string | null;
  };
}

// Stand-ins for the pair inputs: a NUL cannot come from the runner's environment, so these can
// neither clash with a real id nor reach a message (they are replaced before anything uses them).
const STAND_IN_BASELINE = "\u0000rank-mode-baseline";
const STAND_IN_CANDIDATE = "\u0000rank-mode-candidate";

/** The evaluate-only inputs, with why each makes no sense in rank mode. */
const EVALUATE_ONLY: readonly (readonly [string, string])[] = [
  [
    "baseline",
    "is for evaluate (one pair); with models set the action ranks: leave it empty, and name the production config with reference",
  ],
  ["canary", "is for evaluate (one pair); rank mode has no production canary: leave it empty"],
];

export function readRankActionInputs(
  getInput: GetInput,
  env: InputEnv,
  onPullRequest: boolean,
): RankActionInputs {
  const problems: InputProblem[] = [];
  for (const [name, why] of EVALUATE_ONLY)
    if (getInput(name).trim() !== "") problems.push({ field: name, message: why });

  const models = splitList(getInput("models"));
  const seen = new Set<string>();
  for (const m of models) {
    if (seen.has(m))
      problems.push({ field: "models", message: `names ${JSON.stringify(m.slice(0, 200))} twice` });
    seen.add(m);
  }
  if (seen.size < 2)
    problems.push({
      field: "models",
      message: `needs at least 2 different model_config ids, separated by commas or newlines; got ${seen.size}`,
    });
  const member = (name: string): string | null => {
    const v = getInput(name).trim();
    if (v === "") return null;
    if (seen.size >= 2 && !seen.has(v))
      problems.push({
        field: name,
        message: `${JSON.stringify(v.slice(0, 200))} is not among the models: add it to models`,
      });
    return v;
  };
  const reference = member("reference");
  const candidate = member("candidate");

  let shared: ActionInputs | null = null;
  let sharedError: InputError | null = null;
  try {
    shared = readInputs(
      (name) => {
        if (name === "baseline") return STAND_IN_BASELINE;
        if (name === "candidate") return STAND_IN_CANDIDATE;
        if (name === "canary") return "";
        if (name === "check-name") return getInput(name).trim() || DEFAULT_RANK_CHECK_NAME;
        return getInput(name);
      },
      env,
      onPullRequest,
    );
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    sharedError = error;
  }
  if (sharedError !== null || problems.length > 0 || shared === null) {
    const all = [...(sharedError?.problems ?? []), ...problems];
    const total = (sharedError?.total ?? 0) + problems.length;
    throw new InputError(`The action's inputs are invalid (${plural(total, "problem")}):`, all, total);
  }
  return {
    ...shared,
    baseline: "",
    candidate: candidate ?? "",
    canary: null,
    rank: { models, reference, candidate },
  };
}
