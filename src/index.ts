// Action entry point (bundled to dist/index.js). Placeholder until the action lands in src/action/.
process.stdout.write("model-acceptance-gate action: not built yet\n");
