/**
 * git as a child process: fixed arguments, never a shell. The one runner of the project (the
 * action's base policy and the policy log both use it), passed in so tests can replace it.
 */
import { execFile } from "node:child_process";
import { Buffer } from "node:buffer";

export interface GitResult {
  readonly code: number;
  readonly stdout: string;
  /** The raw output, for file contents that must be decoded strictly (the policy). */
  readonly bytes?: Buffer;
  /** What git wrote to stderr (its "fatal: …" line says why it failed). */
  readonly stderr?: string;
}

/** Runs git with arguments (never through a shell) in a directory. */
export type GitRunner = (args: readonly string[], cwd: string) => Promise<GitResult>;

/** Exit status when git could not be started at all (not installed, not on PATH). */
export const GIT_NOT_STARTED = 127;

export const runGit: GitRunner = (args, cwd) =>
  new Promise((resolve) => {
    execFile(
      "git",
      [...args],
      { cwd, encoding: "buffer", maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const err = Buffer.isBuffer(stderr) ? stderr.toString("utf8") : "";
        if (error === null) resolve({ code: 0, stdout: stdout.toString("utf8"), bytes: stdout, stderr: err });
        else {
          // A string code (ENOENT, ERR_CHILD_PROCESS_STDIO_MAXBUFFER) means git did not run to the end.
          const code = (error as { code?: unknown }).code;
          resolve({ code: typeof code === "number" ? code : GIT_NOT_STARTED, stdout: "", stderr: err });
        }
      },
    );
  });
