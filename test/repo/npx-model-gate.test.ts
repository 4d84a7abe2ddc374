/**
 * `npx model-gate …` works in a clone after `npm ci`, as the README and docs/ say: the package is
 * private (never on the registry), so its own bin is linked by a devDependency on itself
 * ("file:."), which npm ci installs as a link and whose bin lands in node_modules/.bin.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, realpathSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  name: string;
  bin: Record<string, string>;
  devDependencies: Record<string, string>;
};
const lock = JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8")) as {
  packages: Record<string, { link?: boolean }>;
};

describe("npx model-gate", () => {
  it("is linked by a devDependency on the package itself, recorded in the lock file", () => {
    expect(pkg.bin).toEqual({ "model-gate": "dist/cli.js" });
    expect(pkg.devDependencies[pkg.name]).toBe("file:.");
    expect(lock.packages[`node_modules/${pkg.name}`]?.link).toBe(true);
  });

  it("runs the committed dist/cli.js from node_modules/.bin", () => {
    expect(realpathSync(join(root, "node_modules", ".bin", "model-gate"))).toBe(
      realpathSync(join(root, "dist", "cli.js")),
    );
    // The command as the docs give it; offline, so a missing link fails here instead of asking the
    // registry (which has no such package).
    const r = spawnSync("npx", ["model-gate", "--help"], {
      cwd: root,
      encoding: "utf8",
      env: { ...process.env, npm_config_offline: "true" },
    });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^Usage: model-gate <command>/);
  });
});
