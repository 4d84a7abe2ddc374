// @ts-check
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/", "node_modules/", "coverage/", "examples/", "bench-out/"] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/restrict-template-expressions": ["error", { allowNumber: true }],
      "@typescript-eslint/no-unnecessary-condition": "off",
    },
  },
  {
    files: ["**/*.js", "**/*.mjs"],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // The core is pure: data in, data out. It never reads files, starts threads or processes, or
    // talks to GitHub or the runner; the shells (src/read, src/cli, src/action, src/git) do, and
    // pass it what they read.
    files: ["src/core/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["@actions/*"], message: "src/core must not import @actions/*; pass dependencies in." },
            {
              regex: "^(node:)?(fs|fs/.*|worker_threads|child_process|zlib|crypto|process)$",
              message:
                "src/core is pure: no files, threads, processes or hashing here; the shells do the I/O (src/read/run-inputs.ts) and pass data in.",
            },
            {
              regex: "^(\\.\\./)+(read|io|cli|action|git|importers)/",
              message: "src/core imports nothing above it: pass what it needs in.",
            },
          ],
        },
      ],
      "no-restricted-globals": [
        "error",
        { name: "process", message: "src/core is pure: the shells read the environment and pass values in." },
      ],
    },
  },
);
