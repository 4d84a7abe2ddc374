/**
 * Which run the action makes: rank mode when the `models` input is set (src/action/rank-mode.ts),
 * else evaluate (src/action/evaluate-mode.ts). Apart from evaluate-mode.ts so rank mode can reuse its pieces
 * without an import circle.
 */
import { isRankMode } from "./rank-inputs.js";
import { runRankAction } from "./rank-mode.js";
import { runAction, type ActionDeps, type ActionResult } from "./evaluate-mode.js";

/** What the entry point acts on, in either mode. */
export type GateRunResult = Pick<ActionResult, "verdictFailure" | "undelivered">;

export function runGateAction(deps: ActionDeps): Promise<GateRunResult> {
  if (isRankMode(deps.getInput)) return runRankAction(deps);
  // The one rank-only input evaluate would otherwise ignore in silence.
  if (deps.getInput("reference").trim() !== "")
    deps.log.warning(
      "reference is used only in rank mode (with models set); evaluate compares candidate with baseline, and ignores it.",
    );
  return runAction(deps);
}
