/** The tests' seeded generator: the core's mulberry32 (the same as scripts/lib/prng.mjs). */
export { seededUniforms as prng } from "../../src/core/stats/seeded-uniforms.js";
