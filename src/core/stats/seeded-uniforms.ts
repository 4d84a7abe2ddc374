/**
 * mulberry32: a small seeded generator of uniforms in [0, 1) (multiples of 2⁻³²). The core draws
 * with it where a figure needs random numbers (the max-t quantile), so that the same inputs give
 * the same bytes on any machine; the tests draw their data with it too.
 */
export function seededUniforms(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
