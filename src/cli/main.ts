/**
 * The CLI's dispatcher and its single error boundary: user mistakes (InputError) print one clear
 * message and exit 3; anything else is a bug, printed briefly (the stack only with
 * MODEL_GATE_DEBUG=1) with exit 4. Verdicts are results, mapped to exit 0/1/2 by the command.
 *
 * Messages quote untrusted text (policy keys and owner, file names, flag values), and the CLI may
 * run in a GitHub Actions step, whose runner obeys any output line that starts with `::`. So every
 * message goes out through `neutraliseLogLines`, as in the action's logger: no line can start a
 * workflow command, and control, bidi and invisible characters are shown as `\u{…}`.
 */
import { InputError } from "../core/errors.js";
import { neutraliseLogLines } from "../core/report/escape.js";
import { sourceMappedStack } from "../source-mapped-stack.js";
import { TOOL_VERSION } from "../version.js";
import { evaluateCommand } from "./evaluate-command.js";
import { importCommand } from "./import-command.js";
import { policyLogCommand } from "./policy-log-command.js";
import { rankCommand } from "./rank-command.js";
import type { CliIo } from "./io.js";

export const MAIN_HELP = `Usage: model-gate <command> [flags]

Commands:
  evaluate   decide accept / reject / unresolved from a results export and a policy
  rank       rank several model configs on one common task set; say which orders are unresolved
  import     turn a harness's output (SWE-bench, Inspect, annotations) into a gate export
  policy-log the policy file's history from git: each change, loosenings and audit flags

Run "model-gate <command> --help" for a command's flags.
  -h, --help      this text
  -v, --version   print the version

Exit status: 0 accept, 1 reject, 2 unresolved, 3 input, policy or usage error, 4 internal error
(rank: 0 the top model resolved, 2 unresolved).
`;

export const EXIT_INPUT_ERROR = 3;
export const EXIT_INTERNAL_ERROR = 4;

export async function runCli(
  argv: readonly string[],
  io: CliIo,
  env: NodeJS.ProcessEnv = {},
): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case "evaluate":
        return await evaluateCommand(rest, io);
      case "rank":
        return await rankCommand(rest, io);
      case "import":
        return await importCommand(rest, io);
      case "policy-log":
        return await policyLogCommand(rest, io);
      case undefined:
      case "help":
      case "-h":
      case "--help":
        io.stdout(MAIN_HELP);
        return command === undefined ? EXIT_INPUT_ERROR : 0;
      case "-v":
      case "--version":
        io.stdout(`${TOOL_VERSION}\n`);
        return 0;
      default:
        throw new InputError(
          `Unknown command "${command}". Commands: evaluate, rank, import, policy-log. Run "model-gate --help".`,
        );
    }
  } catch (error) {
    if (error instanceof InputError) {
      io.stderr(`model-gate: ${neutraliseLogLines(error.message)}\n`);
      return EXIT_INPUT_ERROR;
    }
    const message = error instanceof Error ? error.message : String(error);
    io.stderr(
      `model-gate: internal error: ${neutraliseLogLines(message)}\nThis is a bug; please report it with the command you ran.\n`,
    );
    if (env["MODEL_GATE_DEBUG"] === "1" && error instanceof Error && error.stack)
      io.stderr(`${sourceMappedStack(error.stack)}\n`);
    return EXIT_INTERNAL_ERROR;
  }
}
