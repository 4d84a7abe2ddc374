/**
 * The new importers on the whole real tool outputs under ../shared/data/tool-outputs (its
 * SOURCES.md says where each came from and gives the counts pinned here). Skipped without
 * ../shared; tool-outputs.test.ts runs the same tests on the committed fixtures.
 */
import { join } from "node:path";
import { describe } from "vitest";
import { SHARED_DIR, sharedDataPresent } from "../helpers/shared-data.js";
import { type ToolOutputSet, toolOutputGateTests, toolOutputImportTests } from "./tool-outputs.js";

const DIR = join(SHARED_DIR, "data", "tool-outputs");
const OPUS = "20250906_orchestrator_claude-4.1-opus";
const SONNET = "20250902_orchestrator_claude-4-sonnet";
const QWEN = "20250902_orchestrator_qwen-3-coder-480B";

/** The counts SOURCES.md states ("My counts"). */
const REAL_SET: ToolOutputSet = {
  dir: DIR,
  tbRuns: [OPUS, SONNET, QWEN],
  promptfoo: "offline-arith_3providers_repeat2_results.json",
  lmSamples: "samples_math_perturbed_full_2026-01-21T03-44-18.458309.jsonl",
  inspectJson: [
    "arc_easy_ollama-qwen2.5-0.5b.json",
    "arc_easy_claude-sonnet-4-0.json",
    "cvebench_claude-opus-4-6_sample-error_excerpt.json",
  ],
  inspectEval: "popularity_openai-gpt-4o-mini.eval",
  pinned: {
    [OPUS]: { pass: 159, fail: 223, infra_error: 18 },
    [SONNET]: { pass: 144, fail: 227, infra_error: 29 },
    [QWEN]: { pass: 77, fail: 281, infra_error: 42 },
    "file://providers/arith-good.js": { pass: 10, fail: 0, infra_error: 0 },
    "file://providers/arith-flaky.js": { pass: 2, fail: 4, infra_error: 4 },
    echo: { pass: 0, fail: 10, infra_error: 0 },
    "samples_math_perturbed_full_2026-01-21T03-44-18.458309.jsonl": { pass: 0, fail: 10, infra_error: 0 },
    "arc_easy_ollama-qwen2.5-0.5b.json": { pass: 1, fail: 2, infra_error: 0 },
    "arc_easy_claude-sonnet-4-0.json": { pass: 5, fail: 0, infra_error: 0 },
    "cvebench_claude-opus-4-6_sample-error_excerpt.json": { pass: 0, fail: 0, infra_error: 1 },
    "popularity_openai-gpt-4o-mini.eval": { pass: 8, fail: 2, infra_error: 0 },
  },
  floor: 50,
};

const present = sharedDataPresent("the importers on the real tool outputs", [
  join(DIR, "terminal-bench", OPUS, "results.json"),
  join(DIR, "promptfoo", REAL_SET.promptfoo),
  join(DIR, "lm-evaluation-harness", REAL_SET.lmSamples),
  join(DIR, "inspect-ai", REAL_SET.inspectEval),
]);

describe.skipIf(!present)(
  "tool outputs (../shared, whole files): each imports, counts equal SOURCES.md and a recount",
  () => {
    toolOutputImportTests(REAL_SET);
  },
);

describe.skipIf(!present)("tool outputs (../shared, whole files): rank and evaluate on the imports", () => {
  toolOutputGateTests(REAL_SET);
});
