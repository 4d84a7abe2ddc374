/**
 * The new importers on the committed tool-output fixtures (cut from real outputs:
 * fixtures/tool-outputs/PROVENANCE.md). tool-outputs-real.test.ts checks the imports of the whole
 * files (committed under test/fixtures/tool-imports).
 */
import { resolve } from "node:path";
import { describe } from "vitest";
import { type ToolOutputSet, toolOutputGateTests, toolOutputImportTests } from "./tool-outputs.js";

const OPUS = "20250906_orchestrator_claude-4.1-opus";
const SONNET = "20250902_orchestrator_claude-4-sonnet";
const QWEN = "20250902_orchestrator_qwen-3-coder-480B";

/** The counts PROVENANCE.md states for each fixture. */
export const FIXTURE_SET: ToolOutputSet = {
  dir: resolve(import.meta.dirname, "fixtures/tool-outputs"),
  tbRuns: [OPUS, SONNET, QWEN],
  promptfoo: "offline-arith_3providers_repeat2.trimmed.json",
  lmSamples: "samples_math_perturbed_full_2026-01-21T03-44-18.458309.jsonl",
  inspectJson: [
    "arc_easy_ollama-qwen2.5-0.5b.trimmed.json",
    "arc_easy_claude-sonnet-4-0.trimmed.json",
    "cvebench_claude-opus-4-6_sample-error.trimmed.json",
  ],
  inspectEval: "popularity_openai-gpt-4o-mini.trimmed.eval",
  table: "tb-opus-trials.csv",
  pinned: {
    [OPUS]: { pass: 13, fail: 40, infra_error: 7 },
    [SONNET]: { pass: 15, fail: 32, infra_error: 13 },
    [QWEN]: { pass: 9, fail: 37, infra_error: 14 },
    "file://providers/arith-good.js": { pass: 10, fail: 0, infra_error: 0 },
    "file://providers/arith-flaky.js": { pass: 2, fail: 4, infra_error: 4 },
    echo: { pass: 0, fail: 10, infra_error: 0 },
    "samples_math_perturbed_full_2026-01-21T03-44-18.458309.jsonl": { pass: 0, fail: 10, infra_error: 0 },
    "arc_easy_ollama-qwen2.5-0.5b.trimmed.json": { pass: 1, fail: 2, infra_error: 0 },
    "arc_easy_claude-sonnet-4-0.trimmed.json": { pass: 5, fail: 0, infra_error: 0 },
    "cvebench_claude-opus-4-6_sample-error.trimmed.json": { pass: 0, fail: 0, infra_error: 1 },
    "popularity_openai-gpt-4o-mini.trimmed.eval": { pass: 8, fail: 2, infra_error: 0 },
    "tb-opus-trials.csv": { pass: 13, fail: 40, infra_error: 7 },
  },
  floor: 5,
};

describe("tool outputs (committed fixtures): each imports, counts equal a recount, same bytes twice", () => {
  toolOutputImportTests(FIXTURE_SET);
});

describe("tool outputs (committed fixtures): rank and evaluate on the imports", () => {
  toolOutputGateTests(FIXTURE_SET);
});
