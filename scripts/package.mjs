// Bundles the entry points with ncc into dist/index.js (the action) and dist/cli.js (the CLI), each
// with its source map (dist/*.js.map: mappings to src/ only, no copies of the sources) that
// src/source-mapped-stack.ts and the coverage of the bundle tests read.
// ncc writes one folder per entry; we flatten them so action.yml and the package's bin point at
// plain files, and fail loudly if ncc ever emits an extra chunk we would silently drop.
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import process from "node:process";
import { join, posix } from "node:path";

const entries = [
  { src: "src/index.ts", out: "index.js" },
  { src: "src/cli.ts", out: "cli.js" },
];
const expected = new Set(["index.js", "index.js.map", "licenses.txt", "package.json"]);
const work = mkdtempSync(join(tmpdir(), "gate-package-"));
rmSync("dist", { recursive: true, force: true });
mkdirSync("dist");
const licenses = [];
try {
  for (const entry of entries) {
    const outDir = join(work, entry.out);
    execFileSync(
      process.execPath,
      [
        "node_modules/@vercel/ncc/dist/ncc/cli.js",
        "build",
        entry.src,
        "-o",
        outDir,
        "--license",
        "licenses.txt",
        "--target",
        "es2022",
        "--source-map",
        "--no-source-map-register",
        "-q",
      ],
      { stdio: "inherit" },
    );
    const extra = readdirSync(outDir).filter((f) => !expected.has(f));
    if (extra.length > 0)
      throw new Error(`ncc emitted unexpected files for ${entry.src}: ${extra.join(", ")}`);
    const code = readFileSync(join(outDir, "index.js"), "utf8");
    const mapComment = "//# sourceMappingURL=index.js.map";
    if (!code.trimEnd().endsWith(mapComment))
      throw new Error(`ncc wrote no source map comment for ${entry.src}`);
    writeFileSync(
      join("dist", entry.out),
      code.slice(0, code.lastIndexOf(mapComment)) + `//# sourceMappingURL=${entry.out}.map\n`,
    );
    writeFileSync(
      join("dist", `${entry.out}.map`),
      JSON.stringify(distMap(join(outDir, "index.js.map"), entry.out)),
    );
    chmodSync(join("dist", entry.out), 0o755);
    licenses.push(readFileSync(join(outDir, "licenses.txt"), "utf8"));
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
/**
 * ncc's map, for dist/: sources as paths relative to dist/ (ncc writes them relative to the
 * repository with a "../" prefix, i.e. ".././src/cli.ts"), without sourcesContent (the sources
 * are in the repository; the maps stay small and reviewable in diffs).
 */
function distMap(file, out) {
  const map = JSON.parse(readFileSync(file, "utf8"));
  const sources = map.sources.map((source) => {
    const normal = posix.normalize(source);
    if (!normal.startsWith("../") || normal.startsWith("../../"))
      throw new Error(`source map of ${out} names a source outside the repository: ${source}`);
    return normal;
  });
  return { version: map.version, file: out, sources, names: map.names, mappings: map.mappings };
}

// Both bundles share most dependencies; keep each licence block once, in a stable order.
const blocks = new Set(
  licenses
    .join("\n\n")
    .split(/\n\n(?=\S)/)
    .map((b) => b.trim())
    .filter(Boolean),
);
writeFileSync("dist/licenses.txt", [...blocks].sort().join("\n\n") + "\n");
writeFileSync("dist/package.json", JSON.stringify({ type: "module" }, null, 2) + "\n");
