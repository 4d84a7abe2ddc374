/**
 * readBaseVersions (src/action/base-files.ts) in process, for the paths the bundled run cannot
 * reach on its own: no token, the contents API failing, a base version that is a directory or a
 * symbolic link, a path git would read as a pattern; and the base version streamed byte for byte.
 */
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { gitToFile, readBaseVersions, type BaseFilesRequest } from "../../src/action/base-files.js";
import { runGit } from "../../src/git/run-git.js";
import { createRecordingLogger } from "../../src/action/logger.js";
import { malformedAnswers } from "./fake-github.js";
import { git, initRepo, octokitFor, useSharedFakeGitHub } from "./helpers.js";

const shared = useSharedFakeGitHub("gate-base-files-");

function write(ws: string, files: Readonly<Record<string, string | Buffer>>): void {
  for (const [rel, data] of Object.entries(files)) {
    mkdirSync(dirname(join(ws, rel)), { recursive: true });
    writeFileSync(join(ws, rel), data);
  }
}

function commit(ws: string, message: string): string {
  git(ws, "add", "-A");
  git(ws, "commit", "-q", "--allow-empty", "-m", message);
  return git(ws, "rev-parse", "HEAD");
}

const UNKNOWN_BASE = "1".repeat(40);

function request(
  ws: string,
  baseSha: string,
  files: { results?: string[]; reviews?: string[] },
): BaseFilesRequest {
  return {
    owner: "acme",
    repo: "models",
    baseSha,
    workspace: ws,
    tempRoot: shared.tempDir(),
    results: (files.results ?? []).map((p) => join(ws, p)),
    reviews: (files.reviews ?? []).map((p) => join(ws, p)),
    display: (abs) => abs.slice(ws.length + 1),
  };
}

function deps(withToken: boolean) {
  return {
    octokit: withToken ? octokitFor(shared.fake) : null,
    git: runGit,
    gitToFile,
    log: createRecordingLogger(),
  };
}

/** A checkout whose history lacks the base commit (fetch-depth: 1). */
function shallowCheckout(files: Readonly<Record<string, string | Buffer>>): string {
  const ws = shared.tempDir();
  initRepo(ws);
  write(ws, files);
  commit(ws, "head only");
  return ws;
}

describe("readBaseVersions", () => {
  it("git: the base version streamed byte for byte (binary, 3 MB, beyond the in-memory git runner's buffer use); disposed afterwards", async () => {
    const ws = shared.tempDir();
    initRepo(ws);
    const big = Buffer.alloc(3 * 1024 * 1024);
    for (let i = 0; i < big.length; i++) big[i] = (i * 2654435761) >>> 24;
    write(ws, { "r.bin": big });
    const base = commit(ws, "base");
    write(ws, { "r.bin": Buffer.concat([big, Buffer.from("more")]) });
    commit(ws, "head");
    const d = deps(false);
    const got = await readBaseVersions(request(ws, base, { results: ["r.bin"] }), d);
    const prev = got.previous?.results[0] ?? "";
    expect(readFileSync(prev).equals(big)).toBe(true);
    expect(got.names.get(prev)).toBe(`r.bin@${base.slice(0, 12)}`);
    await got.dispose();
    expect(() => readFileSync(prev)).toThrow(/ENOENT/);
  });

  it("no github-token and no base commit in the checkout: a warning says how to get it; nothing compared", async () => {
    const ws = shallowCheckout({ "r.jsonl": "{}\n" });
    const d = deps(false);
    const got = await readBaseVersions(request(ws, UNKNOWN_BASE, { results: ["r.jsonl"] }), d);
    expect(got.previous).toBeNull();
    expect(d.log.lines.filter((l) => l.level === "warning").map((l) => l.message)).toEqual([
      "Append-only: results r.jsonl not compared: the checkout does not have the base commit 111111111111 and there " +
        "is no github-token to ask the contents API (check out with fetch-depth: 0, or pass github-token with contents: read).",
    ]);
  });

  it("the contents API answering 502 three times: retried, then one warning; nothing compared", async () => {
    const ws = shallowCheckout({ "r.jsonl": "{}\n" });
    shared.fake.setFile(UNKNOWN_BASE, "r.jsonl", "{}\n");
    shared.fake.fail("repos/get-content", { status: 502 });
    const d = deps(true);
    const got = await readBaseVersions(request(ws, UNKNOWN_BASE, { results: ["r.jsonl"] }), d);
    expect(got.previous).toBeNull();
    expect(shared.fake.calls()).toEqual(Array(3).fill("GET repos/get-content"));
    expect(got.base.files[0]?.note).toBe(
      "the contents API did not give the base version (502: Server Error); check out with fetch-depth: 0 so that git can",
    );
    expect(d.log.lines.filter((l) => l.level === "warning")).toHaveLength(1);
  });

  // Was (until the answers were checked): a web page answered 200 was streamed in as the file's
  // earlier version. A raw answer has no shape to check, but GitHub never sends HTML there.
  it("the contents API answering 200 with an HTML page: not taken for the file; one warning, nothing compared", async () => {
    const ws = shallowCheckout({ "r.jsonl": "{}\n" });
    shared.fake.setFile(UNKNOWN_BASE, "r.jsonl", "{}\n");
    const [, html] = malformedAnswers(200)[0] ?? [];
    if (html === undefined) throw new Error("no HTML answer");
    shared.fake.fail("repos/get-content", html);
    const d = deps(true);
    const got = await readBaseVersions(request(ws, UNKNOWN_BASE, { results: ["r.jsonl"] }), d);
    expect(got.previous).toBeNull();
    expect(shared.fake.calls()).toEqual(["GET repos/get-content"]);
    expect(got.base.files[0]?.note).toBe(
      "the contents API did not give the base version (GitHub answered 200 with an HTML page instead of JSON); " +
        "check out with fetch-depth: 0 so that git can",
    );
    expect(d.log.lines.filter((l) => l.level === "warning")).toHaveLength(1);
  });

  it("the contents API: 404 is 'not at the base commit', without a warning", async () => {
    const ws = shallowCheckout({ "r.jsonl": "{}\n" });
    const d = deps(true);
    const got = await readBaseVersions(request(ws, "5".repeat(40), { results: ["r.jsonl"] }), d);
    expect(got.base.files[0]?.note).toBe(
      "not at the base commit 555555555555 (contents API: 404; added by this change, or the token cannot read it)",
    );
    expect(d.log.lines.filter((l) => l.level === "warning")).toEqual([]);
  });

  it("git: a directory or a symbolic link at the base commit is not compared, and says which", async () => {
    const ws = shared.tempDir();
    initRepo(ws);
    write(ws, { "d/inner.jsonl": "{}\n", "target.jsonl": "{}\n" });
    symlinkSync("target.jsonl", join(ws, "link.jsonl"));
    const base = commit(ws, "base");
    rmSync(join(ws, "d"), { recursive: true });
    rmSync(join(ws, "link.jsonl"));
    write(ws, { d: "{}\n", "link.jsonl": "{}\n" });
    commit(ws, "head");
    const got = await readBaseVersions(request(ws, base, { results: ["d", "link.jsonl"] }), deps(false));
    const short = base.slice(0, 12);
    expect(got.base.files.map((f) => f.note)).toEqual([
      `a directory at the base commit ${short}`,
      `not a regular file at the base commit ${short} (a symbolic link)`,
    ]);
    expect(got.previous).toBeNull();
  });

  it("a path with pattern characters means itself to git (`*`, `:`, a leading `-`)", async () => {
    const ws = shared.tempDir();
    initRepo(ws);
    const names = ["a*.jsonl", ":x.jsonl", "-r.jsonl"];
    write(ws, Object.fromEntries(names.map((n) => [n, `${JSON.stringify(n)}\n`])));
    write(ws, { "ab.jsonl": "decoy\n" });
    const base = commit(ws, "base");
    const got = await readBaseVersions(request(ws, base, { results: names }), deps(false));
    expect(got.previous?.results.map((p) => readFileSync(p, "utf8"))).toEqual(
      names.map((n) => `${JSON.stringify(n)}\n`),
    );
    await got.dispose();
  });

  it("not a git checkout: every file named, none compared, no warning", async () => {
    const ws = shared.tempDir();
    write(ws, { "r.jsonl": "{}\n" });
    const d = deps(true);
    const got = await readBaseVersions(request(ws, UNKNOWN_BASE, { reviews: ["r.jsonl"] }), d);
    expect(got.base.files).toEqual([
      {
        kind: "reviews",
        path: "r.jsonl",
        compared: false,
        via: null,
        note: "the workspace is not a git checkout",
      },
    ]);
    expect(shared.fake.calls()).toEqual([]);
    expect(d.log.lines.filter((l) => l.level === "warning")).toEqual([]);
  });
});
