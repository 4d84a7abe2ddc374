/**
 * An expired policy is impossible to miss (docs/policy.md, `on_expired`): the check run's title
 * and the first line of every rendering say so; `on_expired: neutral` turns a check run that would
 * pass into a neutral one and never a failing one into anything else; the verdict is unchanged.
 */
import { describe, expect, it } from "vitest";
import { conclusionFor } from "../../src/action/check-run.js";
import { gatePolicy, runGate } from "../../src/core/gate.js";
import { parsePolicy } from "../../src/core/policy/load-policy.js";
import { renderMarkdown } from "../../src/core/report/render-markdown.js";
import { renderText } from "../../src/core/report/render-text.js";
import { renderEvaluateHtml } from "../../src/core/report/html/render-evaluate-html.js";
import { COMMENT_MARKER } from "../../src/core/report/escape.js";
import { checkRunTitle } from "../../src/core/report/verdict-text.js";
import type { Report } from "../../src/core/report/report-types.js";
import { buildDataset, SPEC_EXAMPLE_5 } from "../stats/dataset-builder.js";

const POLICY = (onExpired: string) => `owner: "@acme/eval-owners"
revisit: 2026-03-31
on_expired: ${onExpired}
accept_if:
  common_valid_tasks: ">= 500"
  infra_error_rate: "< 1%"
  disputed_fraction: "< 5%"
  observed_margin: "> validity_sensitivity + run_variance"
`;

/** SPEC example 5 (accept) under a policy whose revisit date passed on `today` or not. */
function example5(onExpired: string, today: string): Report {
  const policy = gatePolicy(
    {
      text: POLICY(onExpired),
      source: { path: "gate/policy.yaml", sha256: "0".repeat(64), source: "file", lastCommit: null },
      headText: null,
      history: null,
    },
    today,
  );
  return runGate(buildDataset(SPEC_EXAMPLE_5), policy, {
    canary: null,
    toolVersion: "0.1.0",
    asOfReview: null,
    appendOnly: null,
    appendOnlyBase: null,
  });
}

/** The first line a reader sees: after the hidden marker. */
function firstVisibleLine(md: string): string {
  return md.replace(COMMENT_MARKER, "").trimStart().split("\n")[0] ?? "";
}

describe("an expired policy in the title and on the first line", () => {
  it("expired (warn): the verdict stands; title, comment, text and page lead with it", () => {
    const r = example5("warn", "2026-04-01");
    expect(r.verdict).toBe("accept");
    expect(r.provenance.policy).toMatchObject({ expired: true, on_expired: "warn", revisit: "2026-03-31" });
    expect(checkRunTitle(r)).toMatch(/^Accept \(policy expired 2026-03-31\): margin \+5\.77 pp, /);
    expect(firstVisibleLine(renderMarkdown(r, { marker: true }))).toMatch(
      /^## ✅ accept \(⌛ policy expired 2026-03-31\) — candidate /,
    );
    expect(renderText(r).split("\n")[0]).toMatch(/^ACCEPT \(policy expired 2026-03-31\) — candidate /);
    expect(renderEvaluateHtml(r)).toMatch(
      /<h1><span[^>]*>✅ accept<\/span> \(⌛ policy expired 2026-03-31\) — /,
    );
    expect(r.warnings[0]).toBe(
      "Policy expired on 2026-03-31; owner @acme/eval-owners must re-examine the thresholds.",
    );
  });

  it("on the revisit date itself the policy holds: nothing is said", () => {
    const r = example5("warn", "2026-03-31");
    expect(r.provenance.policy.expired).toBe(false);
    expect(checkRunTitle(r)).toMatch(/^Accept: /);
    expect(renderMarkdown(r)).not.toContain("expired");
  });

  it("a hand-edited report with a revisit that is not a date: the title says expired without it", () => {
    const r = example5("warn", "2026-04-01");
    const edited: Report = {
      ...r,
      provenance: { ...r.provenance, policy: { ...r.provenance.policy, revisit: "x\n::error::y" } },
    };
    expect(checkRunTitle(edited)).toMatch(/^Accept \(policy expired\): /);
  });
});

describe("on_expired: neutral", () => {
  it("parses, and says so in the warning", () => {
    expect(parsePolicy(POLICY("neutral"), "p.yaml").on_expired).toBe("neutral");
    const r = example5("neutral", "2026-04-01");
    expect(r.verdict).toBe("accept");
    expect(r.provenance.policy.on_expired).toBe("neutral");
    expect(r.warnings[0]).toContain("(on_expired: neutral: a passing check run is neutral)");
  });

  it("a passing check run is neutral; a failing one stays failing; not expired, nothing changes", () => {
    expect(conclusionFor("accept", "fail", true)).toBe("neutral");
    expect(conclusionFor("reject", "fail", true)).toBe("failure");
    expect(conclusionFor("unresolved", "fail", true)).toBe("failure");
    expect(conclusionFor("unresolved", "neutral", true)).toBe("neutral");
    expect(conclusionFor("accept", "fail", false)).toBe("success");
  });
});
