import { describe, expect, it } from "vitest";
import { isHiddenCodePoint } from "../../src/core/report/escape.js";
import { renderText } from "../../src/core/report/render-text.js";
import { acceptReport, hostileReport, unresolvedReport } from "./fixtures.js";

describe("renderText (--format text)", () => {
  it("prints the verdict, why, checks and what would change, without Markdown", () => {
    const text = renderText(acceptReport());
    expect(text.split("\n")[0]).toBe("ACCEPT — candidate cfg-2026-11-02-a over baseline cfg-2026-10-14-base");
    expect(text).toContain(
      "The margin +5.77 pp (candidate 66.92%, baseline 61.15% on 520 common valid tasks)",
    );
    expect(text).toMatch(/\n {2}pass {2}Common valid tasks {11}520 +needs ≥ 500\n/);
    expect(text).toContain("What would change the verdict\n  - Relabelling 7 reviewed tasks (valid → broken");
    expect(text).not.toMatch(/\*\*|<code>|&#|\\[-._]/);
    const unresolved = renderText(unresolvedReport());
    expect(unresolved).toContain("  FAIL  Production canary");
    expect(unresolved).toContain(
      "  ! Only 12 clusters (G < 30): the clustered standard error may be too small.",
    );
  });

  it("neutralises untrusted text for a terminal: no control, bidi or hidden character, no workflow command", () => {
    const text = renderText(hostileReport());
    expect(Array.from(text).filter((c) => c !== "\n" && isHiddenCodePoint(c.codePointAt(0) ?? 0))).toEqual(
      [],
    );
    expect(text).not.toContain("\u001b");
    expect(text).not.toMatch(/^\s*::/m);
    expect(text).toContain("\\u{202E}");
    // No newline from the data: the same lines as the plain report, but for the wrapped closing
    // paragraph, where longer (hostile) strings may take a line or two more.
    const plainLines = renderText(unresolvedReport()).split("\n").length;
    expect(text.split("\n").length).toBeGreaterThanOrEqual(plainLines);
    expect(text.split("\n").length).toBeLessThanOrEqual(plainLines + 2);
  });
});
