// Lists the test files that may read `../shared` (the data this project's own workspace keeps beside
// the checkout, which a user's clone lacks), one per line, for .ci/run's run without it: every
// test/**/*.test.ts that names a `shared` path itself or imports, at any depth, a module under
// test/ that does. No test should: they read the fixtures committed under test/fixtures
// (scripts/test-fixtures.mjs makes them from ../shared), so the list is normally empty. Generous on
// purpose: a file listed in error only costs its run time; a file missed is a test that could fail
// on a user's clone unseen.
//
//   node scripts/shared-data-tests.mjs
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const testDir = join(root, "test");

/** "shared" as a whole path part: "../shared", '/shared/', join(x, "shared") (not "shared.md"). */
const NAMES_SHARED = /["'`/]shared(?=["'`/])/;
/** Relative module specifiers: `from "./x.js"`, `import("../y.js")`, `import "./z.js"`. */
const RELATIVE_IMPORT = /(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g;

const files = readdirSync(testDir, { recursive: true, encoding: "utf8" })
  .filter((f) => /\.(?:ts|mts|js|mjs)$/.test(f))
  .map((f) => join(testDir, f));

const text = new Map(files.map((f) => [f, readFileSync(f, "utf8")]));

/** The .ts file a `.js` specifier names (TypeScript's NodeNext convention), or the file itself. */
function target(from, spec) {
  const p = resolve(dirname(from), spec);
  const ts = p.replace(/\.(m?)js$/, ".$1ts");
  return text.has(ts) ? ts : text.has(p) ? p : null;
}

const imports = new Map(
  files.map((f) => [
    f,
    [...(text.get(f) ?? "").matchAll(RELATIVE_IMPORT)]
      .map((m) => target(f, m[1] ?? ""))
      .filter((t) => t !== null),
  ]),
);

// Every file that names a shared path, then every file importing one of those, until none is added.
const reads = new Set(files.filter((f) => NAMES_SHARED.test(text.get(f) ?? "")));
for (let added = true; added;) {
  added = false;
  for (const f of files) {
    if (!reads.has(f) && (imports.get(f) ?? []).some((t) => reads.has(t))) {
      reads.add(f);
      added = true;
    }
  }
}

const selected = files
  .filter((f) => f.endsWith(".test.ts") && reads.has(f))
  .map((f) => relative(root, f))
  .sort();
process.stdout.write(selected.map((f) => `${f}\n`).join(""));
