/**
 * A file is hashed chunk by chunk as it is read (two buffers in turn): over many chunks the digest
 * in the provenance must be the sha256 of the file's exact bytes, and the data read the same as
 * for a file of one chunk.
 */
import { createHash } from "node:crypto";
import { tableRecords } from "../../../src/core/model.js";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readDataset } from "../../../src/read/read-dataset.js";
import { BASELINE, CANDIDATE, exportLines, many, tempDir } from "../../helpers/export-writer.js";

/** Many read chunks (READ_CHUNK_BYTES, 256 KiB) and a last one cut short. */
const LARGE_BYTES = 8 * 1024 * 1024 + 1;

describe("hashing a file of many chunks", () => {
  it("gives the file's sha256 and the same dataset as a file of one chunk", async () => {
    const dir = tempDir();
    const lines = exportLines([
      ...many(40, "v", { validity: "valid", a: ["pass", "fail"], b: ["fail", "fail"] }),
      ...many(10, "u", { validity: "disputed", a: ["pass"], b: ["infra_error"] }),
    ]);
    const block = lines.join("\n") + "\n";
    // Repeat the block with a distinct attempt id per copy, until the file passes the threshold.
    const copies = Math.ceil(LARGE_BYTES / block.length);
    const big = join(dir, "big.jsonl");
    const parts: string[] = [];
    for (let c = 0; c < copies; c++) {
      parts.push(
        block
          .replace(/"attempt":(\d+)/g, `"attempt":"c${c}-$1"`)
          .replaceAll('"review_revision":1}', `"review_revision":1,"attempt":"c${c}"}`),
      );
    }
    writeFileSync(big, parts.join(""));
    const small = join(dir, "small.jsonl");
    writeFileSync(small, block);
    const bytes = readFileSync(big);
    expect(bytes.length).toBeGreaterThanOrEqual(LARGE_BYTES);

    const d = await readDataset({ results: [big], reviews: [], baseline: BASELINE, candidate: CANDIDATE });
    expect(d.inputs[0]?.sha256).toBe(createHash("sha256").update(bytes).digest("hex"));
    expect(d.rowsRead).toBe(lines.length * copies);

    const s = await readDataset({ results: [small], reviews: [], baseline: BASELINE, candidate: CANDIDATE });
    expect(tableRecords(d.tasks).map((t) => [t.taskId, t.validity])).toEqual(
      tableRecords(s.tasks).map((t) => [t.taskId, t.validity]),
    );
    // Every copy is a distinct attempt, so each task's counts are `copies` times the small file's.
    expect(d.candidate.duplicateRows).toBe(0);
    tableRecords(d.tasks).forEach((t, i) => {
      const one = tableRecords(s.tasks)[i];
      expect(t.candidate?.pass).toBe((one?.candidate?.pass ?? 0) * copies);
      expect(t.baseline?.infra_error).toBe((one?.baseline?.infra_error ?? 0) * copies);
    });
  });
});
