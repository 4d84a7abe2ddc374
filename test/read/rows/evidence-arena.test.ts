/**
 * EvidenceArena: packed lists written on trial, kept or replaced, read back by handle, compared
 * with a line's item spans; full, it refuses (the scanner then makes a string, as without one).
 */
import { Buffer } from "node:buffer";
import { describe, expect, it } from "vitest";

import {
  ARENA_CHUNK_BYTES,
  ARENA_FIRST_CHUNK_BYTES,
  EvidenceArena,
} from "../../../src/read/rows/evidence-arena.js";
import { RowScanner } from "../../../src/read/rows/row-scanner.js";
import { emptyExportRow } from "../../../src/read/rows/row-checks.js";
import { prng } from "../../helpers/prng.js";

/** A line holding the items as a JSON array, and their spans (first byte, closing quote). */
function spansOf(items: readonly string[]): { b: Buffer; v: DataView; spans: Int32Array } {
  const b = Buffer.from(`{"evidence":[${items.map((x) => JSON.stringify(x)).join(",")}]}`, "latin1");
  const spans = new Int32Array(2 * items.length);
  let at = b.indexOf("[") + 1;
  items.forEach((item, k) => {
    spans[2 * k] = at + 1;
    spans[2 * k + 1] = at + 1 + item.length;
    at += item.length + 3;
  });
  return { b, v: new DataView(b.buffer, b.byteOffset, b.length), spans };
}

/** How many lists of `size` bytes the first chunk holds. */
function fitting(size: number): number {
  return 1 + Math.floor((ARENA_FIRST_CHUNK_BYTES - (4 + size + 3)) / (4 + size));
}

function write(arena: EvidenceArena, items: readonly string[]): number {
  const { v, spans } = spansOf(items);
  return arena.write(spans, items.length, v, 0);
}

describe("the evidence arena", () => {
  it("reads back every kept list, across chunks, while lists on trial are replaced", () => {
    const rand = prng(20261207);
    const arena = new EvidenceArena();
    const kept: [number, string][] = [];
    let bytes = 0;
    for (let i = 0; bytes < 3 * ARENA_CHUNK_BYTES; i++) {
      const n = 2 + Math.floor(rand() * 4);
      // (Now and then a list larger than a chunk that is not yet full at its size.)
      const long = rand() < 0.01 ? 40_000 : 600;
      const items = Array.from(
        { length: n },
        (_, k) => `i${i}-${k}-${"z".repeat(Math.floor(rand() * long))}`,
      );
      const h = write(arena, items);
      expect(h).toBeGreaterThanOrEqual(0);
      expect(arena.onTrial(h)).toBe(true);
      expect(arena.string(h)).toBe(items.join("\n"));
      if (rand() < 0.5) {
        arena.keep(h);
        expect(arena.onTrial(h)).toBe(false);
        kept.push([h, items.join("\n")]);
        bytes += items.join("\n").length;
      }
    }
    expect(new Set(kept.map(([h]) => h)).size).toBe(kept.length);
    expect(Math.max(...kept.map(([h]) => h))).toBeGreaterThanOrEqual(2 * ARENA_CHUNK_BYTES);
    expect(arena.textOf("a\nb")).toBe("a\nb");
    expect(arena.textOf(undefined)).toBeUndefined();
    for (const [h, list] of kept) {
      expect(arena.string(h)).toBe(list);
      expect(arena.textOf(h)).toBe(list);
      expect(arena.length(h)).toBe(list.length);
    }
  });

  it("compares a line's items with a list byte for byte, separators included", () => {
    const rand = prng(20261208);
    const arena = new EvidenceArena();
    const pool = [
      "a",
      "ab",
      "abc",
      "abcd",
      "abcde",
      "https://review.example.org/x.json",
      "fixtures/x/fixture.log",
    ];
    let same = 0;
    for (let i = 0; i < 3_000; i++) {
      const list = Array.from(
        { length: 2 + Math.floor(rand() * 3) },
        () => pool[Math.floor(rand() * pool.length)] as string,
      );
      const h = write(arena, list);
      arena.keep(h);
      // The same items, one changed, one item moved across the separator, or another count.
      const row = [...list];
      const change = Math.floor(rand() * 4);
      if (change === 1) row[0] = `${row[0]}x`;
      if (change === 2) row.splice(0, 2, `${row[0]}${row[1]}`.slice(0, -1), `${row[1]}`.slice(-1));
      if (change === 3) row.push("q");
      const { v, spans } = spansOf(row);
      const expected = row.join("\n") === list.join("\n");
      expect(arena.spansAre(h, spans, row.length, v, 0), `${list.join("|")} / ${row.join("|")}`).toBe(
        expected,
      );
      if (expected) same++;
    }
    expect(same).toBeGreaterThan(500);
  });

  it("refuses a list once full, and keeps only the list on trial", () => {
    const arena = new EvidenceArena(1);
    const item = "w".repeat(5_000);
    let h = 0;
    let kept = 0;
    for (; h >= 0; kept++) {
      h = write(arena, [String(kept).padStart(4, "0"), item]);
      if (h >= 0) arena.keep(h);
    }
    // A list takes its 4-byte length and its bytes; the last must also leave room for the 3
    // bytes a word-wise copy may write past it.
    expect(kept - 1).toBe(fitting(4 + 1 + 5_000));
    expect(() => {
      arena.keep(0);
    }).toThrow(/not the one on trial/);
    expect(arena.string(0)).toBe(`0000\n${item}`);
    expect(() => new EvidenceArena(0)).toThrow(RangeError);
  });

  it("lets the scanner make strings again once the arena is full", () => {
    const arena = new EvidenceArena(1);
    const scanner = new RowScanner(true, arena);
    const row = emptyExportRow();
    let handles = 0;
    let strings = 0;
    for (let i = 0; i < 300; i++) {
      const evidence = [`log-${String(i).padStart(3, "0")}`, "v".repeat(8_000)];
      const line = Buffer.from(
        JSON.stringify({
          task_id: `t${i}`,
          dataset_revision: "d",
          harness_revision: "h",
          model_config: "m",
          validity: "valid",
          result: "pass",
          review_revision: 0,
          evidence,
        }),
      );
      expect(scanner.scan(line, 0, line.length, row)).toBe(true);
      const packed = row.packedEvidence;
      if (typeof packed === "number") {
        handles++;
        expect(arena.string(packed)).toBe(evidence.join("\n"));
        arena.keep(packed);
      } else {
        strings++;
        expect(packed).toBe(evidence.join("\n"));
      }
    }
    expect(handles).toBe(fitting(7 + 1 + 8_000));
    expect(strings).toBe(300 - handles);
  });
});
