/**
 * Which run the action makes: rank mode when the `models` input is set (src/action/rank-run.ts),
 * else evaluate (src/action/run.ts). Apart from run.ts so the rank run can reuse run.ts's pieces
 * without an import circle.
 */
import { isRankMode } from "./rank-inputs.js";
import { runRankAction } from "./rank-run.js";
import { runAction, type ActionDeps, type ActionResult } from "./run.js";

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
