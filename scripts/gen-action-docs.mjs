// Generates the action's inputs and outputs tables in docs/action.md from action.yml, so the two
// cannot drift. Only the text between <!-- action-inputs:start/end --> and
// <!-- action-outputs:start/end --> is rewritten; the prose around them is edited by hand.
//
//   node scripts/gen-action-docs.mjs          rewrite docs/action.md
//   node scripts/gen-action-docs.mjs --check  exit 1 if docs/action.md is not up to date
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const docPath = join(root, "docs", "action.md");
const action = parse(readFileSync(join(root, "action.yml"), "utf8"));

/** One line of Markdown table cell: folded whitespace, escaped pipes. */
function cell(text) {
  return String(text ?? "")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/\|/g, "\\|");
}

function code(text) {
  const s = String(text);
  return s.includes("`") ? `\`\` ${s} \`\`` : `\`${s}\``;
}

function inputsTable() {
  const rows = Object.entries(action.inputs ?? {}).map(([name, spec]) => {
    const required = spec.required === true ? "yes" : "no";
    const def = spec.default === undefined || spec.default === "" ? "" : code(spec.default);
    return `| ${code(name)} | ${required} | ${cell(def)} | ${cell(spec.description)} |`;
  });
  return ["| Input | Required | Default | Description |", "|:--|:--|:--|:--|", ...rows].join("\n");
}

function outputsTable() {
  const rows = Object.entries(action.outputs ?? {}).map(
    ([name, spec]) => `| ${code(name)} | ${cell(spec.description)} |`,
  );
  return ["| Output | Description |", "|:--|:--|", ...rows].join("\n");
}

function replaceBetween(text, name, body) {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  if (i < 0 || j < i) throw new Error(`docs/action.md has no ${start} … ${end} block`);
  return `${text.slice(0, i + start.length)}\n${body}\n${text.slice(j)}`;
}

const doc = readFileSync(docPath, "utf8");
const updated = replaceBetween(
  replaceBetween(doc, "action-inputs", inputsTable()),
  "action-outputs",
  outputsTable(),
);

if (process.argv.includes("--check")) {
  if (updated !== doc) {
    process.stderr.write(
      "docs/action.md's action tables differ from action.yml: run node scripts/gen-action-docs.mjs\n",
    );
    process.exit(1);
  }
} else if (updated !== doc) {
  writeFileSync(docPath, updated);
}
