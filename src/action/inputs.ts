/**
 * Reads every action input once, validates it and resolves paths, so the rest of the action works
 * on one typed object. Every path must lie inside GITHUB_WORKSPACE after symbolic links are
 * resolved (a link cannot smuggle in /etc/passwd or another job's files) and must be a regular
 * file; each violation is an InputError naming the input and the path.
 */
import { lstatSync, realpathSync, statSync } from "node:fs";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { InputError, type InputProblem } from "../core/errors.js";
import { globFiles, hasGlobChars } from "../io/glob.js";
import { plural } from "../core/words.js";

export type CommentMode = "always" | "on-change" | "never";
export type FailOn = "reject" | "reject-or-unresolved" | "never";

export interface ActionInputs {
  /** Absolute real paths, de-duplicated, in the order given (globs sorted). */
  readonly results: readonly string[];
  readonly reviews: readonly string[];
  /**
   * The glob patterns among `results` and `reviews`, `/`-separated and relative to the workspace:
   * the append-only check looks for files they matched at the base commit (src/action/base-files.ts).
   */
  readonly globs: { readonly results: readonly string[]; readonly reviews: readonly string[] };
  readonly policy: {
    /** Absolute path inside the workspace (may not exist on a pull request that deletes it). */
    readonly absPath: string;
    /** `/`-separated path relative to the workspace: the path in the repository. */
    readonly repoPath: string;
  };
  readonly baseline: string;
  readonly candidate: string;
  readonly canary: "pass" | "fail" | null;
  readonly token: string;
  readonly checkName: string;
  /** Which gate's sticky comment this is: `comment-key`, by default the check name. */
  readonly commentKey: string;
  readonly comment: CommentMode;
  readonly failOn: FailOn;
  /** Absolute path the report JSON is written to. */
  readonly reportPath: string;
  /**
   * `pull-request`: on workflow_run, the pull request when the event lists none (forks); always
   * confirmed with the API before it is used. null when empty.
   */
  readonly pullRequest: number | null;
}

/** Reads one input by its action.yml name; "" when unset (like @actions/core getInput). */
export type GetInput = (name: string) => string;

export interface InputEnv {
  readonly workspace: string;
  /** RUNNER_TEMP when set: where the report goes by default. */
  readonly runnerTemp: string | null;
}

export const DEFAULT_CHECK_NAME = "Model acceptance gate";
export const DEFAULT_REPORT_NAME = "model-gate-report.json";

const COMMENT_MODES: readonly CommentMode[] = ["always", "on-change", "never"];
const FAIL_ON: readonly FailOn[] = ["reject", "reject-or-unresolved", "never"];

function oneOf<T extends string>(
  name: string,
  raw: string,
  allowed: readonly T[],
  fallback: T,
  problems: InputProblem[],
): T {
  const v = raw.trim();
  if (v === "") return fallback;
  if ((allowed as readonly string[]).includes(v)) return v as T;
  problems.push({
    field: name,
    message: `must be one of ${allowed.map((a) => `"${a}"`).join(", ")}, got ${JSON.stringify(v)}`,
  });
  return fallback;
}

/** Splits a list input on newlines and commas, trimming and dropping blanks. */
export function splitList(raw: string): string[] {
  return raw
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

function toPosix(p: string): string {
  return sep === "/" ? p : p.split(sep).join("/");
}

/** True when `child` is `root` itself or below it (both absolute, normalised). */
export function isInside(root: string, child: string): boolean {
  const rel = relative(root, child);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/**
 * Resolves a list input of paths and globs to absolute real paths of regular files inside the
 * workspace. A pattern that matches nothing, a missing file, a directory or anything whose real
 * path leaves the workspace is a problem.
 */
export function resolveFileList(
  name: string,
  raw: string,
  workspace: string,
  problems: InputProblem[],
): string[] {
  const realRoot = realpathSync(workspace);
  const out: string[] = [];
  const seen = new Set<string>();
  const accept = (abs: string, shown: string): void => {
    let real: string;
    try {
      real = realpathSync(abs);
    } catch {
      problems.push({ field: name, message: `${JSON.stringify(shown)} does not exist` });
      return;
    }
    if (!isInside(realRoot, real)) {
      problems.push({
        field: name,
        message: `${JSON.stringify(shown)} resolves outside GITHUB_WORKSPACE; inputs must be files of the workspace`,
      });
      return;
    }
    if (!statSync(real).isFile()) {
      problems.push({ field: name, message: `${JSON.stringify(shown)} is not a regular file` });
      return;
    }
    if (!seen.has(real)) {
      seen.add(real);
      out.push(real);
    }
  };
  for (const item of splitList(raw)) {
    const abs = resolve(workspace, item);
    if (!isInside(resolve(workspace), abs)) {
      problems.push({
        field: name,
        message: `${JSON.stringify(item)} is outside GITHUB_WORKSPACE; inputs must be files of the workspace`,
      });
      continue;
    }
    if (!hasGlobChars(item)) {
      accept(abs, item);
      continue;
    }
    const rel = toPosix(relative(resolve(workspace), abs));
    const matches = globFiles(realRoot, rel);
    if (matches.length === 0) {
      problems.push({ field: name, message: `${JSON.stringify(item)} matches no file in GITHUB_WORKSPACE` });
      continue;
    }
    for (const m of matches) accept(join(realRoot, m), m);
  }
  return out;
}

/**
 * The policy input: one path inside the workspace. On a pull request the file may be absent from
 * the checkout (the PR deletes it); the base commit's version decides anyway, so existence is
 * checked only when `mustExist`.
 */
function resolvePolicy(
  raw: string,
  workspace: string,
  mustExist: boolean,
  problems: InputProblem[],
): ActionInputs["policy"] {
  const item = raw.trim();
  const root = resolve(workspace);
  const abs = resolve(root, item);
  const policy = { absPath: abs, repoPath: toPosix(relative(root, abs)) };
  if (item === "") {
    problems.push({
      field: "policy",
      message: "is required: the path of the acceptance policy YAML in the repository",
    });
    return policy;
  }
  if (hasGlobChars(item)) {
    problems.push({ field: "policy", message: `must be one file, not a pattern (${JSON.stringify(item)})` });
    return policy;
  }
  if (!isInside(root, abs) || abs === root) {
    problems.push({ field: "policy", message: `${JSON.stringify(item)} is outside GITHUB_WORKSPACE` });
    return policy;
  }
  let exists = true;
  try {
    lstatSync(abs);
  } catch {
    exists = false;
  }
  if (!exists) {
    if (mustExist) problems.push({ field: "policy", message: `${JSON.stringify(item)} does not exist` });
    return policy;
  }
  const real = realpathSync(abs);
  if (!isInside(realpathSync(root), real)) {
    problems.push({ field: "policy", message: `${JSON.stringify(item)} resolves outside GITHUB_WORKSPACE` });
  } else if (!statSync(real).isFile()) {
    problems.push({ field: "policy", message: `${JSON.stringify(item)} is not a regular file` });
  }
  return policy;
}

function required(name: string, raw: string, problems: InputProblem[]): string {
  const v = raw.trim();
  if (v === "") problems.push({ field: name, message: "is required" });
  return v;
}

/**
 * Reads and validates all inputs. `onPullRequest` (a pull request, a merge group or a
 * workflow_run: a base commit's policy decides) relaxes only one rule: the policy file need not
 * exist in the checkout, because the base commit's version is the one that decides.
 */
export function readInputs(getInput: GetInput, env: InputEnv, onPullRequest: boolean): ActionInputs {
  const problems: InputProblem[] = [];
  const workspace = resolve(env.workspace);
  const resultsRaw = getInput("results");
  if (resultsRaw.trim() === "")
    problems.push({ field: "results", message: "is required: paths or globs of the results export" });
  const results = resolveFileList("results", resultsRaw, workspace, problems);
  const reviews = resolveFileList("reviews", getInput("reviews"), workspace, problems);
  const policy = resolvePolicy(getInput("policy"), workspace, !onPullRequest, problems);
  const baseline = required("baseline", getInput("baseline"), problems);
  const candidate = required("candidate", getInput("candidate"), problems);
  if (baseline !== "" && baseline === candidate)
    problems.push({
      field: "candidate",
      message: `must differ from baseline (both are ${JSON.stringify(baseline)})`,
    });
  const canaryRaw = oneOf("canary", getInput("canary"), ["pass", "fail"] as const, "pass", problems);
  const canary = getInput("canary").trim() === "" ? null : canaryRaw;
  const comment = oneOf("comment", getInput("comment"), COMMENT_MODES, "always", problems);
  const failOn = oneOf("fail-on", getInput("fail-on"), FAIL_ON, "reject-or-unresolved", problems);
  const checkName = getInput("check-name").trim() || DEFAULT_CHECK_NAME;
  const commentKey = getInput("comment-key").trim() || checkName;
  const token = getInput("github-token").trim();
  const prRaw = getInput("pull-request").trim();
  let pullRequest: number | null = null;
  if (prRaw !== "") {
    if (/^#?[1-9][0-9]{0,9}$/.test(prRaw) && Number(prRaw.replace("#", "")) <= Number.MAX_SAFE_INTEGER)
      pullRequest = Number(prRaw.replace("#", ""));
    else
      problems.push({
        field: "pull-request",
        message: `must be a pull request number (e.g. 42), got ${JSON.stringify(prRaw.slice(0, 80))}`,
      });
  }
  const reportRaw = getInput("report-path").trim();
  const reportPath =
    reportRaw !== "" ? resolve(workspace, reportRaw) : join(env.runnerTemp ?? workspace, DEFAULT_REPORT_NAME);
  if (problems.length > 0) {
    throw new InputError(
      `The action's inputs are invalid (${plural(problems.length, "problem")}):`,
      problems,
    );
  }
  const globsOf = (raw: string): string[] =>
    splitList(raw)
      .filter(hasGlobChars)
      .map((item) => toPosix(relative(workspace, resolve(workspace, item))))
      .filter((rel) => !rel.startsWith("..") && !isAbsolute(rel));
  return {
    results,
    reviews,
    globs: { results: globsOf(resultsRaw), reviews: globsOf(getInput("reviews")) },
    policy,
    baseline,
    candidate,
    canary,
    token,
    checkName,
    commentKey,
    comment,
    failOn,
    reportPath,
    pullRequest,
  };
}
