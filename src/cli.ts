#!/usr/bin/env node
// CLI entry point (bundled to dist/cli.js). Placeholder until the CLI lands in src/cli/.
process.stdout.write("model-gate: not built yet\n");
