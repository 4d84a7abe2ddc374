/** The tool's version, printed in every report's provenance. Kept equal to package.json by a test. */
export const TOOL_VERSION = "0.1.0";
