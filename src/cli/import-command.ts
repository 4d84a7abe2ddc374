import { resolve } from "node:path";
import { importInputs, runImport } from "../importers/index.js";
import { neutraliseLogLines } from "../core/report/escape.js";
import { writeFileAtomic } from "../io/atomic-write.js";
import { checkOutputTarget, describeFsCode } from "../io/file-kind.js";
import { InputError } from "../core/errors.js";
import { isImportHelpRequest, parseImportArgs } from "./import-args.js";
import { IMPORT_HELP } from "./import-help.js";
import type { CliIo } from "./io.js";

/** `model-gate import KIND FILE [...]`: JSONL to stdout (or -o OUT), notes to stderr. */
export async function importCommand(argv: readonly string[], io: CliIo): Promise<number> {
  if (argv.length === 0 || isImportHelpRequest([...argv])) {
    io.stdout(IMPORT_HELP);
    return argv.length === 0 ? 3 : 0;
  }
  const options = parseImportArgs([...argv]);
  if (options.out !== undefined) {
    // The export must not replace the importer's input (or a device): refused before reading.
    const given = await importInputs({ ...options, cwd: io.cwd });
    checkOutputTarget(
      resolve(io.cwd, options.out),
      options.out,
      "-o",
      given.map((p) => ({ path: resolve(io.cwd, p), shown: p })),
    );
  }
  // Files are read relative to the user's directory and named as typed (evidence stays relative).
  const result = await runImport({ ...options, cwd: io.cwd });
  const text = result.lines.map((l) => `${l}\n`).join("");
  if (options.out !== undefined) {
    try {
      await writeFileAtomic(resolve(io.cwd, options.out), text);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === undefined) throw error;
      throw new InputError(
        `Cannot write the export ${options.out}: ${describeFsCode(error)}. No file was written or changed.`,
      );
    }
  } else {
    io.stdout(text);
  }
  for (const note of result.notes) io.stderr(`model-gate import: ${neutraliseLogLines(note)}\n`);
  return 0;
}
