/**
 * Ids from the command line or an action input that match the data only after folding what
 * cannot be seen (#11): still an error, never a guess, but the message names the id that looks
 * the same and shows the code points where the two differ. Every place a given id is matched
 * against the data: --baseline/--candidate (CLI and action, one path: readDataset), the
 * importers' --run, --board and --scorer, and a score value against --score-map.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { codePoints, foldInvisible, unicodeNearMatch } from "../../../src/core/unicode-near-match.js";
import { importText, type ImportOptions } from "../../../src/importers/index.js";
import { mapScore } from "../../../src/importers/inspect.js";
import { BASELINE, CANDIDATE, exportLines, many, tempDir, writePolicy } from "../../helpers/export-writer.js";
import { named } from "../../helpers/named-cases.js";
import { cliInProcess } from "../../helpers/run-cli.js";
import { inputErrorOf } from "../../importers/helpers.js";
import { exportText, policyYaml, tasks } from "../../action/exports.js";
import { FakeGitHub } from "../../action/fake-github.js";
import { cleanupRuns, distExists, runDist } from "../../action/run-action.js";

const NFC = "cfg-caf\u00e9";
const NFD = "cfg-cafe\u0301";

interface Pair {
  readonly name: string;
  /** The id in the data. */
  readonly data: string;
  /** The id given. */
  readonly given: string;
  readonly kind: string;
  /** The differing code points: given, then data. */
  readonly diff: readonly [string, string];
}

const PAIRS: readonly Pair[] = [
  {
    name: "NFD given, NFC in the data",
    data: NFC,
    given: NFD,
    kind: "NFC vs NFD",
    diff: ["U+0065 U+0301", "U+00E9"],
  },
  {
    name: "NFC given, NFD in the data",
    data: NFD,
    given: NFC,
    kind: "NFC vs NFD",
    diff: ["U+00E9", "U+0065 U+0301"],
  },
  {
    name: "a zero-width space in the given id",
    data: "cfg-b",
    given: "cfg\u200b-b",
    kind: "invisible characters",
    diff: ["U+200B", "nothing"],
  },
  {
    name: "a byte-order mark at the start of the data's id",
    data: "\ufeffcfg-b",
    given: "cfg-b",
    kind: "invisible characters",
    diff: ["nothing", "U+FEFF"],
  },
  {
    name: "a no-break space for a space",
    data: "cfg b",
    given: "cfg\u00a0b",
    kind: "NFKC",
    diff: ["U+00A0", "U+0020"],
  },
  {
    name: "a trailing space (a copied shell word)",
    data: "cfg-b",
    given: "cfg-b ",
    kind: "invisible characters",
    diff: ["U+0020", "nothing"],
  },
  {
    name: "a Cyrillic а for a Latin a",
    data: "cfg-a",
    given: "cfg-\u0430",
    kind: "look-alike",
    diff: ["U+0430", "U+0061"],
  },
  {
    name: "an en dash for a hyphen",
    data: "cfg-a",
    given: "cfg\u2013a",
    kind: "dashes",
    diff: ["U+2013", "U+002D"],
  },
  {
    name: "full-width letters",
    data: "cfg-a",
    given: "\uff43\uff46\uff47-a",
    kind: "NFKC",
    diff: ["U+FF43 U+FF46 U+FF47", "U+0063 U+0066 U+0067"],
  },
];

describe("foldInvisible and codePoints", () => {
  it.each(named(PAIRS))("%s: folds together, differs exactly", (_name, { data, given }) => {
    expect(given).not.toBe(data);
    expect(foldInvisible(given)).toBe(foldInvisible(data));
  });

  it("visibly different ids do not fold together (no false 'looks the same')", () => {
    for (const [a, b] of [
      ["cfg-a", "cfg-b"],
      ["cfg-a", "CFG-A"],
      ["cfg-a", "cfg_a"],
      ["cfg-a", "cfg-a2"],
      ["café", "cafe"],
    ] as const)
      expect(foldInvisible(a)).not.toBe(foldInvisible(b));
  });

  it("codePoints: astral characters are one code point, none is 'nothing'", () => {
    expect(codePoints("a\u{1F600}")).toBe("U+0061 U+1F600");
    expect(codePoints("")).toBe("nothing");
  });

  it("unicodeNearMatch: nothing when no present id looks the same, or when the id is present", () => {
    expect(unicodeNearMatch("cfg-x", ["cfg-a", "cfg-b"])).toBe("");
    expect(unicodeNearMatch(NFC, [NFC, NFD])).toContain(JSON.stringify(NFD));
  });
});

/**
 * `model-gate evaluate` on an export of 30 tasks whose candidate is named `inData`, given the ids
 * `given` (the baseline's is BASELINE unless given).
 */
function evaluateIds(inData: string, given: { readonly baseline?: string; readonly candidate: string }) {
  const dir = tempDir();
  const lines = exportLines(many(30, "t", { validity: "valid", a: ["pass"], b: ["fail"] })).map((l) =>
    l.replace(JSON.stringify(CANDIDATE), JSON.stringify(inData)),
  );
  writeFileSync(join(dir, "results.jsonl"), lines.join("\n") + "\n");
  return cliInProcess(
    [
      "evaluate",
      "--results",
      "results.jsonl",
      "--policy",
      writePolicy(dir),
      "--baseline",
      given.baseline ?? BASELINE,
      "--candidate",
      given.candidate,
      "--today",
      "2026-11-29",
    ],
    dir,
  );
}

describe("--candidate / --baseline through the CLI (the action's inputs take the same path)", () => {
  it.each(named(PAIRS))(
    "%s: exit 3, the message shows both ids' code points",
    async (_name, { data, given, kind, diff }) => {
      const r = await evaluateIds(data, { candidate: given });
      expect(r.code).toBe(3);
      expect(r.stdout).toBe("");
      // (The CLI's output shows invisible characters as \u{…} on top of this.)
      expect(r.stderr).toMatch(/the candidate model_config ".*" does not appear in the export/);
      expect(r.stderr).toContain(`is present and differs from it only by`);
      expect(r.stderr).toContain(kind);
      expect(r.stderr).toContain(`the given id has ${diff[0]} where the data has ${diff[1]}`);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    },
  );

  it("a visibly different id: the plain message, without a look-alike clause", async () => {
    const r = await evaluateIds("cfg-a", { candidate: "cfg-z" });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('the candidate model_config "cfg-z" does not appear in the export');
    expect(r.stderr).not.toContain("differs from it only by");
  });

  it("the baseline too, and each id is named with its own look-alike", async () => {
    const r = await evaluateIds(CANDIDATE, { baseline: `${BASELINE}\u200d`, candidate: CANDIDATE });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`the given id has U+200D where the data has nothing`);
  });
});

describe("the action's candidate input (the bundle)", () => {
  it.runIf(distExists())(
    "an NFD candidate input against an NFC export: one ::error:: with the code points",
    async () => {
      const fake = await new FakeGitHub("acme/models").start();
      try {
        const r = await runDist({
          fake,
          event: "push",
          inputs: { results: "r.jsonl", policy: "p.yaml", baseline: "cfg-baseline", candidate: NFD },
          files: {
            "r.jsonl": exportText(tasks(30, "t", { validity: "valid", a: "pass", b: "fail" }), {
              candidate: NFC,
            }),
            "p.yaml": policyYaml(),
          },
        });
        expect(r.code).toBe(1);
        const errors = r.stdout.split("\n").filter((l) => l.startsWith("::error"));
        expect(errors.join("\n")).toContain("the given id has U+0065 U+0301 where the data has U+00E9");
        expect(fake.violations).toEqual([]);
      } finally {
        await fake.close();
        cleanupRuns();
      }
    },
  );
});

const LB = JSON.stringify({
  leaderboards: [
    {
      name: "Verif\u00efed",
      results: [
        { folder: "run-caf\u00e9", name: "Agent", per_instance_details: { "a__a-1": { resolved: true } } },
      ],
    },
  ],
});

const inspectLog = (scorer: string, value: unknown): string =>
  JSON.stringify({
    version: 2,
    status: "success",
    eval: { task: "t", model: "m", dataset: { name: "d" }, config: {} },
    samples: [{ id: 1, epoch: 1, scores: { [scorer]: { value } } }],
  });

/**
 * An importer option that names something in the input file: the problem it gives, and where the
 * given id and the data's differ (null: they do not look the same, so the message has no
 * look-alike clause).
 */
const IMPORTER_IDS: readonly {
  readonly name: string;
  readonly opts: ImportOptions;
  readonly input: string;
  readonly problem: string;
  readonly diff: string | null;
}[] = [
  {
    name: "--board in NFD against an NFC board name",
    opts: { kind: "swebench-leaderboard", file: "lb.json", board: "Verifi\u0308ed" },
    input: LB,
    problem: "no such board",
    diff: "U+0069 U+0308 where the data has U+00EF",
  },
  {
    name: "--run with a zero-width joiner",
    opts: { kind: "swebench-leaderboard", file: "lb.json", run: "run\u200d-caf\u00e9" },
    input: LB,
    problem: "no entry has folder or name",
    diff: "U+200D where the data has nothing",
  },
  {
    name: "--run in NFD",
    opts: { kind: "swebench-leaderboard", file: "lb.json", run: "run-cafe\u0301" },
    input: LB,
    problem: "no entry has folder or name",
    diff: "U+0065 U+0301 where the data has U+00E9",
  },
  {
    name: "--scorer with a no-break space",
    opts: { kind: "inspect", file: "log.json", scorer: "exact\u00a0match" },
    input: inspectLog("exact match", "C"),
    problem: "no sample has that scorer",
    diff: "U+00A0 where the data has U+0020",
  },
  {
    name: "--scorer with a Greek ο added: visibly different, no look-alike clause",
    opts: { kind: "inspect", file: "log.json", scorer: "exact match \u03bf" },
    input: inspectLog("exact match", "C"),
    problem: "no sample has that scorer",
    diff: null,
  },
  {
    name: "--scorer with a look-alike Greek ο for a Latin o",
    opts: { kind: "inspect", file: "log.json", scorer: "sc\u03bfre" },
    input: inspectLog("score", "C"),
    problem: "no sample has that scorer",
    diff: "U+03BF where the data has U+006F",
  },
];

describe("importers: --run, --board, --scorer and --score-map", () => {
  it.each(named(IMPORTER_IDS))("%s", async (_name, { opts, input, problem, diff }) => {
    const m = await inputErrorOf(() => importText(opts, input, undefined));
    expect(m).toContain(problem);
    if (diff === null) expect(m).not.toContain("differs from it only by");
    else expect(m).toContain(`the given id has ${diff}`);
  });

  it("--score-map: a log value in NFD, or with a zero-width space, against a mapping: unmapped, and the message says why", () => {
    const map = (key: string): Record<string, "fail"> => {
      const m = Object.create(null) as Record<string, "fail">;
      m[key] = "fail";
      return m;
    };
    for (const [value, key, diff] of [
      ["partie\u0301", "parti\u00e9", "U+0065 U+0301 where --score-map has U+00E9"],
      ["P\u200b", "P", "U+200B where --score-map has nothing"],
    ] as const) {
      const r = mapScore(value, { scoreMap: map(key) });
      expect(r).toEqual({ problem: expect.stringContaining("has no mapping") as unknown });
      expect((r as { problem: string }).problem).toContain(`the log's value has ${diff}`);
    }
  });

  it("--score-map: a value named like an Object property is no mapping (never a function as a result)", () => {
    for (const value of ["constructor", "toString", "__proto__", "hasOwnProperty"]) {
      expect(mapScore(value, { scoreMap: Object.create(null) as Record<string, "pass"> })).toEqual({
        problem: expect.stringContaining("has no mapping") as unknown,
      });
      expect(mapScore(value, {})).toEqual({ problem: expect.stringContaining("has no mapping") as unknown });
    }
  });
});
