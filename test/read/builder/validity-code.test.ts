import { describe, expect, it } from "vitest";
import { VALIDITIES, validityCode } from "../../../src/core/model.js";

describe("validityCode", () => {
  it("is each validity's index in VALIDITIES (the label columns decode with VALIDITIES[code])", () => {
    expect(VALIDITIES.map((v) => validityCode(v))).toEqual([0, 1, 2, 3]);
    for (const v of VALIDITIES) expect(VALIDITIES[validityCode(v)]).toBe(v);
  });
});
