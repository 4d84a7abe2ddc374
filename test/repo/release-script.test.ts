/**
 * scripts/release.sh (run by .github/workflows/release.yml): tags vX.Y.Z from package.json, moves
 * vX, pushes both; refuses what would make a pin lie. Run against a real bare remote on disk.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const SCRIPT = resolve(import.meta.dirname, "../../scripts/release.sh");
const ENV = {
  PATH: process.env["PATH"] ?? "/usr/bin:/bin",
  HOME: tmpdir(),
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@example.invalid",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@example.invalid",
};

let root = "";
let work = "";
let remote = "";

function git(cwd: string, ...args: string[]): string {
  const r = spawnSync("git", args, { cwd, env: ENV, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
  return r.stdout.trim();
}

function commitVersion(
  version: string,
  changelog = `## [${version}]\n\n- what changed in ${version}\n`,
): string {
  writeFileSync(join(work, "package.json"), JSON.stringify({ name: "x", version }) + "\n");
  writeFileSync(join(work, "CHANGELOG.md"), `# Changelog\n\n${changelog}\n## [0.0.1]\n\n- older\n`);
  git(work, "add", "-A");
  git(work, "commit", "-qm", `version ${version}`);
  return git(work, "rev-parse", "HEAD");
}

function release(extra: Record<string, string> = {}) {
  const r = spawnSync("bash", [SCRIPT], {
    cwd: work,
    env: { ...ENV, RELEASE_REMOTE: remote, ...extra },
    encoding: "utf8",
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The commit a tag of the remote points at. */
function remoteTag(tag: string): string {
  return git(remote, "rev-parse", `refs/tags/${tag}^{commit}`);
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "gate-release-"));
  remote = join(root, "remote.git");
  work = join(root, "work");
  git(root, "init", "-q", "--bare", remote);
  git(root, "init", "-q", "-b", "main", work);
  git(work, "remote", "add", "origin", remote);
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

describe("scripts/release.sh", () => {
  it("tags vX.Y.Z and moves vX with each release; writes the notes and the tag output", () => {
    const first = commitVersion("0.1.0");
    const notes = join(root, "notes.md");
    const output = join(root, "output.txt");
    writeFileSync(output, "");
    const r = release({ RELEASE_NOTES: notes, GITHUB_OUTPUT: output });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(remoteTag("v0.1.0")).toBe(first);
    expect(remoteTag("v0")).toBe(first);
    expect(readFileSync(notes, "utf8").trim()).toBe("- what changed in 0.1.0");
    expect(readFileSync(output, "utf8")).toBe("tag=v0.1.0\n");

    const second = commitVersion("0.2.0");
    expect(release().code).toBe(0);
    expect(remoteTag("v0.2.0")).toBe(second);
    expect(remoteTag("v0")).toBe(second);
    expect(remoteTag("v0.1.0")).toBe(first);

    const major = commitVersion("1.0.0");
    expect(release().code).toBe(0);
    expect(remoteTag("v1")).toBe(major);
    expect(remoteTag("v0")).toBe(second);
  });

  it("refuses a version that is tagged already, and changes no tag", () => {
    const first = commitVersion("0.1.0");
    expect(release().code).toBe(0);
    git(work, "commit", "-q", "--allow-empty", "-m", "later");
    const r = release();
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("v0.1.0 exists already");
    expect(remoteTag("v0")).toBe(first);
  });

  it("refuses to move vX back from a later release", () => {
    commitVersion("0.3.0");
    expect(release().code).toBe(0);
    const later = remoteTag("v0");
    commitVersion("0.2.9");
    const r = release();
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("v0 points at v0.3.0, later than v0.2.9");
    expect(remoteTag("v0")).toBe(later);
    expect(
      spawnSync("git", ["rev-parse", "--verify", "-q", "refs/tags/v0.2.9"], { cwd: remote }).status,
    ).not.toBe(0);
  });

  it.each([
    ["1.0", "is not X.Y.Z"],
    ["1.0.0-rc.1", "is not X.Y.Z"],
    ["01.0.0", "is not X.Y.Z"],
  ])("refuses the version %j", (version, message) => {
    commitVersion(version, `## [${version}]\n\n- x\n`);
    const r = release();
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(message);
  });

  it("refuses a version without a CHANGELOG section, and a dirty work tree", () => {
    commitVersion("0.4.0", "## [Unreleased]\n\n- x\n");
    let r = release();
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("CHANGELOG.md has no '## [0.4.0]' section");
    commitVersion("0.4.0");
    writeFileSync(join(work, "stray.txt"), "x");
    r = release();
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("uncommitted changes");
  });
});
