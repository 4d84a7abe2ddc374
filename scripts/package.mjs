// Bundles the entry points with ncc into dist/index.js (the action), dist/cli.js (the CLI) and
// dist/parse-worker.js (the worker thread both start for large exports, found next to them).
// ncc writes one folder per entry; we flatten them so action.yml and the package's bin point at
// plain files, and fail loudly if ncc ever emits an extra chunk we would silently drop.
import { execFileSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import process from "node:process";
import { join } from "node:path";

const entries = [
  { src: "src/index.ts", out: "index.js" },
  { src: "src/cli.ts", out: "cli.js" },
  { src: "src/parse-worker.ts", out: "parse-worker.js" },
];
const expected = new Set(["index.js", "licenses.txt", "package.json"]);
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
        "-q",
      ],
      { stdio: "inherit" },
    );
    const extra = readdirSync(outDir).filter((f) => !expected.has(f));
    if (extra.length > 0)
      throw new Error(`ncc emitted unexpected files for ${entry.src}: ${extra.join(", ")}`);
    copyFileSync(join(outDir, "index.js"), join("dist", entry.out));
    chmodSync(join("dist", entry.out), 0o755);
    // An entry without third-party code (the parse worker) gets no licenses.txt.
    const licenseFile = join(outDir, "licenses.txt");
    if (existsSync(licenseFile)) licenses.push(readFileSync(licenseFile, "utf8"));
  }
} finally {
  rmSync(work, { recursive: true, force: true });
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
