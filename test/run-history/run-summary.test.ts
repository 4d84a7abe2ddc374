import { createHash } from "node:crypto";

import { describe, expect, it } from "vitest";

import { inputsDigest, parseRunSummary, summaryOfReport } from "../../src/core/run-history/run-summary.js";
import { sha256Hex } from "../../src/read/sha256-hex.js";
import { acceptReport } from "../report/fixtures.js";

const nodeSha = (s: string): string => createHash("sha256").update(s, "utf8").digest("hex");

describe("sha256Hex (the digest the shells give the core)", () => {
  it("gives the FIPS 180-4 test vectors, over the UTF-8 bytes", () => {
    expect(sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")).toBe(
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
    );
    expect(sha256Hex("é")).toBe(
      createHash("sha256")
        .update(Buffer.from([0xc3, 0xa9]))
        .digest("hex"),
    );
  });
});

describe("summaryOfReport", () => {
  it("takes the figures from the comparison and the digests from the provenance, by kind", () => {
    const report = acceptReport();
    const p = report.provenance;
    const results = p.inputs.filter((i) => i.kind === "results").map((i) => i.sha256);
    const reviews = p.inputs.filter((i) => i.kind === "reviews").map((i) => i.sha256);
    expect(results.length).toBe(2);
    expect(reviews.length).toBe(1);
    const s = summaryOfReport(report, "a".repeat(40), sha256Hex);
    expect(s).toEqual({
      head_sha: "a".repeat(40),
      baseline: report.models.baseline.config,
      candidate: report.models.candidate.config,
      digests: {
        results: nodeSha(
          [...results]
            .sort()
            .map((d) => `${d}\n`)
            .join(""),
        ),
        reviews: nodeSha(`${reviews[0] ?? ""}\n`),
        policy: p.policy.sha256,
      },
      review_revision_max: 3,
      verdict: "accept",
      margin: report.comparison.margin,
      lcb: report.comparison.lcb,
      ucb: report.comparison.ucb,
      margin_low: report.comparison.margin_lower,
      margin_high: report.comparison.margin_upper,
    });
    expect(parseRunSummary(JSON.parse(JSON.stringify(s)))).toEqual({ summary: s, problem: null });
  });

  it("digests one kind of input regardless of the files' order; no files is the empty string's digest", () => {
    expect(inputsDigest(["b".repeat(64), "a".repeat(64)], sha256Hex)).toBe(
      inputsDigest(["a".repeat(64), "b".repeat(64)], sha256Hex),
    );
    expect(inputsDigest([], sha256Hex)).toBe(nodeSha(""));
  });

  it("hashes with the digest it is given, over the sorted digests each followed by a newline", () => {
    const seen: string[] = [];
    const digest = (text: string): string => {
      seen.push(text);
      return "f".repeat(64);
    };
    expect(inputsDigest(["b".repeat(64), "a".repeat(64)], digest)).toBe("f".repeat(64));
    expect(seen).toStrictEqual([`${"a".repeat(64)}\n${"b".repeat(64)}\n`]);
  });
});

describe("parseRunSummary (an untrusted comment)", () => {
  const good = summaryOfReport(acceptReport(), null, sha256Hex);
  it.each([
    [{ ...good, extra: 1 }, 'the summary: Unrecognized key: "extra"'],
    [
      { ...good, head_sha: "HEAD" },
      "head_sha: Invalid string: must match pattern /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/",
    ],
    [{ ...good, verdict: "pass" }, 'verdict: Invalid option: expected one of "accept"|"reject"|"unresolved"'],
    [{ ...good, margin: "0.1" }, "margin: Invalid input: expected number, received string"],
    [
      { ...good, digests: { ...good.digests, policy: "x" } },
      "digests.policy: Invalid string: must match pattern /^[0-9a-f]{64}$/",
    ],
    [{ ...good, baseline: "m".repeat(501) }, "baseline: Too big: expected string to have <=500 characters"],
    [null, "the summary: Invalid input: expected object, received null"],
  ])("refuses a broken summary (%#)", (value, problem) => {
    expect(parseRunSummary(value)).toEqual({ summary: null, problem });
  });
});
