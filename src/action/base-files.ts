/**
 * The append-only check in the action: the previous version of each results and
 * reviews file is its version at the base commit (the pull request's, confirmed on workflow_run,
 * or the merge group's), when the repository holds it there.
 *
 * "The repository holds it" means git tracks the file in the checkout. A file git does not track
 * (an export the benchmark step wrote, a downloaded artifact) or one this change adds has no
 * earlier version to compare: it is named with the reason in one line of the log and in the report
 * key `append_only_base`, and the run goes on. Nothing here fails the run; a base version that
 * cannot be read is a warning.
 *
 * The base version is read with git when the checkout has the base commit (fetch-depth: 0), else
 * with the contents API (raw media type, files up to GitHub's 100 MB). Either way it is streamed
 * into a temporary file, never held in memory: the append-only check (src/core/history) then
 * streams it as it streams any previous file.
 */
import { spawn } from "node:child_process";
import { createWriteStream, realpathSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { isAbsolute, join, relative, sep } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream } from "node:stream/web";
import type { AppendOnlyBase } from "../core/history/history-types.js";
import type { GitRunner } from "../git/run-git.js";
import { globToRegExp, literalPrefix } from "../io/glob.js";
import { apiMessage, httpStatus, malformed, MalformedAnswerError, type Octokit } from "./github-api.js";
import type { Logger } from "./logger.js";

/** Runs git (never through a shell) with its standard output streamed into `dest` (created). */
export type GitToFile = (args: readonly string[], cwd: string, dest: string) => Promise<{ code: number }>;

export const gitToFile: GitToFile = async (args, cwd, dest) => {
  const child = spawn("git", [...args], { cwd, stdio: ["ignore", "pipe", "ignore"] });
  const exited = new Promise<number>((resolve) => {
    child.once("error", () => {
      resolve(127);
    });
    child.once("close", (code) => {
      resolve(code ?? 128);
    });
  });
  try {
    await pipeline(child.stdout, createWriteStream(dest, { flags: "w", mode: 0o600 }));
  } catch {
    child.kill();
    await exited;
    return { code: 126 };
  }
  return { code: await exited };
};

export interface BaseFilesRequest {
  readonly owner: string;
  readonly repo: string;
  readonly baseSha: string;
  readonly workspace: string;
  /** Where the base versions are written (RUNNER_TEMP, else the system's). */
  readonly tempRoot: string | null;
  readonly results: readonly string[];
  readonly reviews: readonly string[];
  /**
   * The glob patterns of the inputs (relative to the workspace): a file one matched at the base
   * commit that the change removed is compared too (its rows must still be somewhere).
   */
  readonly globs?: { readonly results: readonly string[]; readonly reviews: readonly string[] };
  /** How the gate names a current file (relative to the workspace). */
  readonly display: (abs: string) => string;
}

export interface BaseFilesDeps {
  readonly octokit: Octokit | null;
  readonly git: GitRunner;
  readonly gitToFile: GitToFile;
  readonly log: Logger;
}

export interface BaseVersions {
  /** The base versions to compare with (temporary files); null when there is none. */
  readonly previous: { readonly results: readonly string[]; readonly reviews: readonly string[] } | null;
  /** How each temporary file is named in messages and the report: `path@<base commit>`. */
  readonly names: ReadonlyMap<string, string>;
  readonly base: AppendOnlyBase;
  /** Removes the temporary files. */
  dispose(): Promise<void>;
}

type Kind = "results" | "reviews";
type Outcome =
  | { readonly kind: "read"; readonly via: "git" | "contents API" }
  | { readonly kind: "skip"; readonly note: string; readonly warn: boolean };

const skip = (note: string, warn = false): Outcome => ({ kind: "skip", note, warn });

/** The repository's root in the checkout, or null when the workspace is not a git work tree. */
async function repoRoot(workspace: string, git: GitRunner): Promise<string | null> {
  const top = await git(["rev-parse", "--show-toplevel"], workspace);
  const path = top.stdout.trim();
  if (top.code !== 0 || path === "") return null;
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

/** `/`-separated path of `abs` in the repository at `root`, or null when it lies outside. */
function repoPath(root: string, abs: string): string | null {
  const rel = relative(root, abs);
  if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) return null;
  return rel.split(sep).join("/");
}

async function viaGit(
  root: string,
  sha: string,
  path: string,
  dest: string,
  deps: BaseFilesDeps,
): Promise<Outcome> {
  const short = sha.slice(0, 12);
  // --literal-pathspecs: a path with `*` or `:` in it means itself.
  const listed = await deps.git(
    ["--literal-pathspecs", "ls-tree", "-z", "--full-tree", sha, "--", path],
    root,
  );
  if (listed.code !== 0) return skip(`git ls-tree at the base commit ${short} failed`, true);
  const entry = listed.stdout.split("\0").find((e) => e.endsWith(`\t${path}`));
  if (entry === undefined) return skip(`not at the base commit ${short} (added by this change)`);
  const [mode, type, oid] = entry.slice(0, entry.indexOf("\t")).split(" ");
  if (type === "tree") return skip(`a directory at the base commit ${short}`);
  if (type !== "blob" || oid === undefined || mode === "120000")
    return skip(
      `not a regular file at the base commit ${short} (${mode === "120000" ? "a symbolic link" : `git ${type ?? "?"}`})`,
    );
  const shown = await deps.gitToFile(["cat-file", "blob", oid], root, dest);
  if (shown.code !== 0)
    return skip(`git cat-file blob ${oid.slice(0, 12)} failed (status ${shown.code})`, true);
  return { kind: "read", via: "git" };
}

async function viaApi(
  req: BaseFilesRequest,
  path: string,
  dest: string,
  deps: BaseFilesDeps,
): Promise<Outcome> {
  const short = req.baseSha.slice(0, 12);
  const octokit = deps.octokit;
  if (octokit === null)
    return skip(
      `the checkout does not have the base commit ${short} and there is no github-token to ask the contents API ` +
        "(check out with fetch-depth: 0, or pass github-token with contents: read)",
      true,
    );
  try {
    const res = await octokit.rest.repos.getContent({
      owner: req.owner,
      repo: req.repo,
      path,
      ref: req.baseSha,
      // The file's own bytes, streamed: not base64 inside JSON (1 MB at most), not in memory.
      mediaType: { format: "raw" },
      request: { parseSuccessResponseBody: false },
    });
    const type = res.headers["content-type"] ?? "";
    const body = res.data as unknown as ReadableStream<Uint8Array> | null;
    if (/^application\/json/i.test(type) || body === null) {
      await body?.cancel();
      return skip(
        `not a regular file at the base commit ${short} (the contents API lists it as a directory or submodule)`,
      );
    }
    // A web page (a proxy's or an error page) is not the file's bytes; GitHub never sends one here.
    if (/^text\/html/i.test(type)) {
      await body.cancel();
      throw malformed({ status: res.status, headers: res.headers, data: "" });
    }
    await pipeline(Readable.fromWeb(body), createWriteStream(dest, { flags: "w", mode: 0o600 }));
    return { kind: "read", via: "contents API" };
  } catch (error) {
    const status = httpStatus(error);
    if (status === 404)
      return skip(
        `not at the base commit ${short} (contents API: 404; added by this change, or the token cannot read it)`,
      );
    const why =
      error instanceof MalformedAnswerError
        ? error.message
        : `${status === null ? "no answer" : status}: ${apiMessage(error)}`;
    return skip(
      `the contents API did not give the base version (${why}); check out with fetch-depth: 0 so that git can`,
      true,
    );
  }
}

/**
 * Reads the base commit's version of every results and reviews file the repository holds into
 * temporary files; says in one log line per file what is compared and why the rest is not.
 */
export async function readBaseVersions(req: BaseFilesRequest, deps: BaseFilesDeps): Promise<BaseVersions> {
  const short = req.baseSha.slice(0, 12);
  const root = await repoRoot(req.workspace, deps.git);
  const hasCommit =
    root !== null && (await deps.git(["cat-file", "-e", `${req.baseSha}^{commit}`], root)).code === 0;
  let dir: string | null = null;
  const names = new Map<string, string>();
  const previous: Record<Kind, string[]> = { results: [], reviews: [] };
  const files: AppendOnlyBase["files"][number][] = [];

  const one = async (kind: Kind, abs: string, index: number): Promise<void> => {
    const path = root === null ? null : repoPath(root, abs);
    const tracked =
      root !== null &&
      path !== null &&
      (await deps.git(["--literal-pathspecs", "ls-files", "-z", "--error-unmatch", "--", path], root))
        .code === 0;
    let outcome: Outcome;
    let dest = "";
    if (root === null) outcome = skip("the workspace is not a git checkout");
    else if (path === null || !tracked)
      outcome = skip("not in the repository (git does not track it: e.g. a downloaded artifact)");
    else {
      dir ??= await mkdtemp(join(req.tempRoot ?? tmpdir(), "model-gate-base-"));
      dest = join(dir, `${kind}-${index}`);
      outcome = hasCommit
        ? await viaGit(root, req.baseSha, path, dest, deps)
        : await viaApi(req, path, dest, deps);
    }
    const shownPath = path !== null && tracked ? path : req.display(abs);
    if (outcome.kind === "read") {
      previous[kind].push(dest);
      names.set(dest, `${shownPath}@${short}`);
      files.push({ kind, path: shownPath, compared: true, via: outcome.via, note: null });
      deps.log.info(
        `Append-only: ${kind} ${shownPath}: its version at the base commit ${short} is read (${outcome.via}) to compare with.`,
      );
    } else {
      files.push({ kind, path: shownPath, compared: false, via: null, note: outcome.note });
      const line = `Append-only: ${kind} ${shownPath} not compared: ${outcome.note}.`;
      if (outcome.warn) deps.log.warning(line);
      else deps.log.info(line);
    }
  };
  for (const [i, abs] of req.results.entries()) await one("results", abs, i);
  for (const [i, abs] of req.reviews.entries()) await one("reviews", abs, i);

  // Files a glob matched at the base commit that the change removed: their rows must be kept too.
  const globs = req.globs ?? { results: [], reviews: [] };
  if (root !== null && globs.results.length + globs.reviews.length > 0) {
    if (!hasCommit) {
      deps.log.info(
        `Append-only: files the input patterns matched at the base commit ${short} and this change removed are not looked ` +
          "for: the checkout does not have that commit (check out with fetch-depth: 0).",
      );
    } else {
      const current = new Set(files.map((f) => f.path));
      let ws: string | null;
      try {
        ws = realpathSync(req.workspace);
      } catch {
        ws = null;
      }
      const prefix = ws === null || ws === root ? "" : repoPath(root, ws);
      for (const kind of ["results", "reviews"] as const) {
        for (const pattern of globs[kind]) {
          if (prefix === null) continue;
          const full = prefix === "" ? pattern : `${prefix}/${pattern}`;
          const regex = globToRegExp(full);
          const start = literalPrefix(full);
          const listed = await deps.git(
            [
              "--literal-pathspecs",
              "ls-tree",
              "-r",
              "-z",
              "--name-only",
              "--full-tree",
              req.baseSha,
              "--",
              start === "" ? "." : start,
            ],
            root,
          );
          if (listed.code !== 0) {
            deps.log.warning(
              `Append-only: cannot list the files ${pattern} matched at the base commit ${short}.`,
            );
            continue;
          }
          for (const path of listed.stdout.split("\0")) {
            if (path === "" || current.has(path) || !regex.test(path)) continue;
            current.add(path);
            dir ??= await mkdtemp(join(req.tempRoot ?? tmpdir(), "model-gate-base-"));
            const dest = join(dir, `${kind}-removed-${files.length}`);
            const outcome = await viaGit(root, req.baseSha, path, dest, deps);
            if (outcome.kind !== "read") continue;
            previous[kind].push(dest);
            names.set(dest, `${path}@${short}`);
            const note = `removed by this change (${pattern} matched it at the base commit)`;
            files.push({ kind, path, compared: true, via: "git", note });
            deps.log.info(
              `Append-only: ${kind} ${path}: its version at the base commit ${short} is read to compare with, although ${note}.`,
            );
          }
        }
      }
    }
  }

  const compared = previous.results.length + previous.reviews.length;
  return {
    previous: compared === 0 ? null : previous,
    names,
    base: { commit: req.baseSha, files },
    dispose: async () => {
      if (dir !== null) await rm(dir, { recursive: true, force: true });
    },
  };
}
