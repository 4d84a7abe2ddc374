/**
 * The report's number formats live one level down (src/core/format-number.ts), so that the
 * decision's sentences print figures in the same units as every rendering; this re-export keeps
 * the renderers' imports where they were.
 */
export * from "../format-number.js";
