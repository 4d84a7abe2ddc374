// The scripts' seeded randomness: a run with the same seed draws the same numbers on any machine,
// so their figures and fixtures can be made again exactly.

/**
 * mulberry32: a small 32-bit seeded generator. Returns a function that gives a uniform float in
 * [0, 1) per call (a multiple of 2⁻³²).
 */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A standard normal draw (Box–Muller) from two draws of `rand`; the first is kept at 1e-12 or
 * more, so a 0 from the generator does not give log(0).
 */
export function normal(rand) {
  const u = Math.max(rand(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
}
