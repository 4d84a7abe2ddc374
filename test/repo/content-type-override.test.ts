/**
 * package.json overrides content-type (a dependency of @octokit/request) to 2.x: every 3.x wants
 * Node >= 22 (ESM only), which made `npm ci` warn EBADENGINE on the Node 20 the CLI supports.
 * @octokit/request calls only `parse(header)` and reads `.type` and `.parameters.charset` to pick
 * JSON, text or binary; 10.0.14 shipped with content-type ^2. These are the headers it branches
 * on, with what 3.1.1 returns for them: the override must give the same.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");
// Resolved the way @octokit/request resolves it (CommonJS require would fail on an ESM-only 3.x).
const fromOctokit = createRequire(join(root, "node_modules/@octokit/request/package.json"));
const entry = fromOctokit.resolve("content-type");
const contentType = fromOctokit("content-type") as {
  parse: (header: string) => { type: string; parameters: Record<string, string> };
};

describe("the content-type override used by @octokit/request", () => {
  it("is 2.x and installs on Node 20 without an engine warning", () => {
    const dir = entry.slice(0, entry.lastIndexOf("/dist/"));
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
      version: string;
      engines: { node: string };
    };
    expect(pkg.version).toMatch(/^2\./);
    const floor = /^>=\s*(\d+)(?:\.\d+)*$/.exec(pkg.engines.node);
    expect(floor?.[1]).toBeDefined();
    expect(Number(floor?.[1])).toBeLessThanOrEqual(20);
    const ours = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
      overrides: Record<string, string>;
    };
    expect(ours.overrides["content-type"]).toBe(pkg.version);
  });

  it.each([
    ["application/json; charset=utf-8", "application/json", "utf-8"],
    ["Application/JSON", "application/json", undefined],
    ["application/scim+json", "application/scim+json", undefined],
    ["application/json ; Charset = utf-8 ", "application/json", "utf-8"],
    ["text/plain;charset=UTF-8", "text/plain", "UTF-8"],
    ['text/html; charset="utf-8"', "text/html", "utf-8"],
    ["application/octet-stream; charset=utf-8", "application/octet-stream", "utf-8"],
    ["not a type;;=", "not a type", undefined],
    ["", "", undefined],
  ])("parse(%j) gives type %j and charset %j, without throwing", (header, type, charset) => {
    const parsed = contentType.parse(header);
    expect(parsed.type).toBe(type);
    expect(parsed.parameters["charset"]).toBe(charset);
  });
});
