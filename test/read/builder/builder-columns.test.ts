import { describe, expect, it } from "vitest";

import { TaskColumns, TaskIndex } from "../../../src/read/builder/builder-columns.js";

describe("TaskIndex: task numbers by (revision, task_id)", () => {
  it("finds every task added, through growth and shared hashes, and no other", () => {
    const cols = new TaskColumns();
    const index = new TaskIndex();
    const key = (k: number): [number, string] => [k % 3, `task-${Math.floor(k / 3)}`];
    const n = 20_000;
    for (let k = 0; k < n; k++) {
      const [rev, id] = key(k);
      const h = TaskIndex.hash(rev, id);
      expect(index.find(h, rev, id, cols)).toBe(-1);
      index.add(h, cols.add(rev, id));
    }
    for (let k = 0; k < n; k++) {
      const [rev, id] = key(k);
      expect(index.find(TaskIndex.hash(rev, id), rev, id, cols)).toBe(k);
      // The same hash with another revision or id is a different key.
      expect(index.find(TaskIndex.hash(rev, id), rev + 3, id, cols)).toBe(-1);
      expect(index.find(TaskIndex.hash(rev, id), rev, `${id}x`, cols)).toBe(-1);
    }
    expect(index.find(TaskIndex.hash(0, "task-99999"), 0, "task-99999", cols)).toBe(-1);
  });

  it("keeps keys apart when every hash is the same (linear probing)", () => {
    const cols = new TaskColumns();
    const index = new TaskIndex();
    for (let k = 0; k < 3000; k++) {
      expect(index.find(7, 0, `t${k}`, cols)).toBe(-1);
      index.add(7, cols.add(0, `t${k}`));
    }
    for (let k = 0; k < 3000; k += 97) expect(index.find(7, 0, `t${k}`, cols)).toBe(k);
  });
});
