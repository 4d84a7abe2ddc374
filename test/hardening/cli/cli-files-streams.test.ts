/**
 * The CLI bundle (dist/cli.js, a real process) and the files and streams around it: an output
 * that would replace an input or a device is refused before anything is read; inputs that are not
 * regular files are refused at once (no hang on a FIFO, no endless read of /dev/zero); a closed
 * stdout ends quietly with the verdict's status; a full stdout or a deleted working directory is
 * one message and exit 3 (never 0/1/2 by accident, never a stack trace).
 */
import { spawnSync } from "node:child_process";
import { execFileSync } from "node:child_process";
import { linkSync, mkdirSync, readFileSync, rmdirSync, symlinkSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";

import {
  BASE,
  CLI_BUNDLE,
  evaluateArgs,
  expectUserError,
  jsonl,
  row,
  runBundle,
  useScratch,
  SMALL_POLICY,
} from "../helpers.js";

const scratch = useScratch("gate-files-");

const RESULTS_TEXT = jsonl(
  Array.from({ length: 6 }, (_, i) => [
    row({ task_id: `t-${i}` }),
    row({ task_id: `t-${i}`, model_config: BASE, result: "fail" }),
  ]).flat(),
);
const results = scratch.write(RESULTS_TEXT, "results.jsonl");
const policy = scratch.write(SMALL_POLICY, "policy.yaml");

/** The inputs are byte for byte as written. */
function expectInputsUnchanged(): void {
  expect(readFileSync(results, "utf8")).toBe(RESULTS_TEXT);
  expect(readFileSync(policy, "utf8")).toBe(SMALL_POLICY);
}

describe("--report never replaces an input or a device", () => {
  it("the results export, the policy, a symbolic link and a hard link to them: exit 3 before reading", () => {
    const link = scratch.path("link.json");
    symlinkSync(results, link);
    const hard = scratch.path("hard.json");
    linkSync(policy, hard);
    for (const [target, shown] of [
      [results, results],
      [policy, policy],
      [link, results],
      [hard, policy],
    ] as const) {
      expectUserError(
        runBundle(evaluateArgs([results], policy, ["--report", target])),
        `Refusing to write --report ${target}: it is the input ${shown}; writing there would replace it. Nothing was read or written.`,
      );
      expectInputsUnchanged();
    }
  });

  it("/dev/null, /dev/full, a FIFO, a directory: refused, named by kind", () => {
    const fifo = scratch.path("report.fifo");
    execFileSync("mkfifo", [fifo]);
    for (const [target, kind] of [
      ["/dev/null", "a character device"],
      ["/dev/full", "a character device"],
      [fifo, "a FIFO (named pipe)"],
      [scratch.dir, "a directory"],
    ] as const) {
      expectUserError(
        runBundle(evaluateArgs([results], policy, ["--report", target])),
        `Refusing to write --report ${target}: it is ${kind}; only a regular file is replaced.`,
      );
    }
  });

  it("import -o onto the importer's own input: refused before reading", () => {
    const input = scratch.write('{"resolved_ids": ["a"], "unresolved_ids": ["b"]}\n', "report-in.json");
    const r = runBundle(["import", "swebench-report", input, "--model-config", "m", "-o", input]);
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toContain(`Refusing to write -o ${input}: it is the input ${input}`);
    expect(readFileSync(input, "utf8")).toBe('{"resolved_ids": ["a"], "unresolved_ids": ["b"]}\n');
  });
});

describe("inputs must be regular files (refused at once, before reading)", () => {
  it("the policy as a FIFO (no hang), /dev/zero (no endless read), /dev/urandom, a directory", () => {
    const fifo = scratch.path("policy.fifo");
    execFileSync("mkfifo", [fifo]);
    for (const [path, kind] of [
      [fifo, "a FIFO (named pipe)"],
      ["/dev/zero", "a character device"],
      ["/dev/urandom", "a character device"],
      [scratch.dir, "a directory"],
    ] as const) {
      const r = runBundle(evaluateArgs([results], path), { timeoutMs: 15_000 });
      expectUserError(r, `Cannot read the policy file ${path}: it is ${kind}, not a regular file.`);
      expect(r.ms).toBeLessThan(15_000);
    }
  });

  it("a policy over 64 KiB is refused while reading", () => {
    const big = scratch.write(SMALL_POLICY + `# ${"x".repeat(70_000)}\n`, "big-policy.yaml");
    expectUserError(
      runBundle(evaluateArgs([results], big)),
      `Cannot read the policy file ${big}: it is larger than the limit of 65536 bytes.`,
    );
  });

  it("an importer's input as a FIFO or /dev/zero: refused at once", () => {
    const fifo = scratch.path("import.fifo");
    execFileSync("mkfifo", [fifo]);
    for (const path of [fifo, "/dev/zero"]) {
      const r = runBundle(["import", "swebench-report", path, "--model-config", "m"], { timeoutMs: 15_000 });
      expect(r.code, r.stderr).toBe(3);
      expect(r.stderr).toMatch(
        /cannot read the input file .*: it is a (FIFO \(named pipe\)|character device), not a regular file/,
      );
    }
  });
});

describe("importer input: gzip bombs and bytes that are not UTF-8", () => {
  it("a .gz that inflates past the 256 MiB import limit ends in a clear error", () => {
    const bomb = scratch.write(gzipSync(Buffer.alloc(300 * 1024 * 1024, 0x20), { level: 9 }), "bomb.json.gz");
    const r = runBundle(["import", "swebench-report", bomb, "--model-config", "m"], {
      nodeArgs: ["--max-old-space-size=128"],
    });
    expect(r.code, r.stderr).toBe(3);
    expect(r.stderr).toContain("inflates to more than 268435456 bytes");
  });

  it("invalid UTF-8 is located (line, byte), never written as U+FFFD; plain and gzip", () => {
    const bytes = Buffer.concat([
      Buffer.from('{"resolved_ids": ["a"],\n "unresolved_ids": ["b'),
      Buffer.from([0xff]),
      Buffer.from('"]}\n'),
    ]);
    for (const [name, data, where] of [
      [
        "bad.json",
        bytes,
        "bad.json:2: the file is not valid UTF-8 text (byte 47 of the file, column 23 of the line)",
      ],
      [
        "bad.json.gz",
        gzipSync(bytes),
        "bad.json.gz:2: the file is not valid UTF-8 text (byte 47 of the inflated file, column 23 of the line)",
      ],
    ] as const) {
      const path = scratch.write(data, name);
      const out = scratch.path(`${name}.out.jsonl`);
      const r = runBundle(["import", "swebench-report", path, "--model-config", "m", "-o", out]);
      expect(r.code, r.stderr).toBe(3);
      expect(r.stderr).toContain(where.replace(/^bad/, `${scratch.dir}/bad`));
      expect(() => readFileSync(out)).toThrow();
    }
  });
});

describe("stdout and the working directory", () => {
  /** Runs the bundle with stdout to `stdout` (a shell redirection) and returns status and stderr. */
  function shell(command: string): { code: number | null; stderr: string } {
    const r = spawnSync("sh", ["-c", command], { encoding: "utf8", timeout: 60_000 });
    return { code: r.status, stderr: r.stderr };
  }
  const args = evaluateArgs([results], policy)
    .map((a) => `'${a}'`)
    .join(" ");
  const node = `'${process.execPath}' '${CLI_BUNDLE}'`;

  it("| head -c 10 (EPIPE): the verdict's exit status, no message, no stack", () => {
    const r = shell(`${node} ${args}; echo "status=$?" >&2`);
    const plain = /status=(\d+)/.exec(r.stderr)?.[1];
    expect(plain).toBe("0");
    // A long report so that the pipe closes while it is being written.
    const long = shell(
      `${node} ${args} --format json | head -c 10 >/dev/null; echo "status=\${PIPESTATUS:-x}" >&2`,
    );
    expect(long.stderr).not.toMatch(/Error|EPIPE|at .+:\d+/);
    const piped = spawnSync(
      "bash",
      ["-c", `${node} ${args} --format json | head -c 1 >/dev/null; echo "s=\${PIPESTATUS[0]}" >&2`],
      {
        encoding: "utf8",
      },
    );
    expect(piped.stderr).toMatch(/s=0\n$/);
    expect(piped.stderr).not.toMatch(/Error|EPIPE|at .+:\d+/);
  });

  it("> /dev/full (ENOSPC): one message and exit 3, for an accept and for --format json", () => {
    for (const extra of ["", "--format json"]) {
      const r = shell(`${node} ${args} ${extra} > /dev/full`);
      expect(r.code).toBe(3);
      expect(r.stderr).toBe("model-gate: cannot write to standard output: no space left on the device.\n");
    }
  });

  it("a deleted working directory: one message and exit 3", () => {
    const dir = scratch.path("gone");
    mkdirSync(dir);
    const r = shell(`cd '${dir}' && rmdir '${dir}' && ${node} ${args}`);
    expect(r.code).toBe(3);
    expect(r.stderr).toBe(
      "model-gate: the current directory no longer exists (it was deleted); cd to an existing directory and run again.\n",
    );
    expect(() => {
      rmdirSync(dir);
    }).toThrow();
  });

  it("the previous report stays whole when the run fails on stdout", () => {
    const report = scratch.path("kept.json");
    writeFileSync(report, "previous\n");
    const r = shell(`${node} ${args} --report '${report}' > /dev/full`);
    expect(r.code).toBe(3);
    // The report is written before stdout; it is the new one, complete.
    expect((JSON.parse(readFileSync(report, "utf8")) as { verdict: string }).verdict).toBe("accept");
  });
});
