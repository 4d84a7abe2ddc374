/**
 * The action's log, as an interface so every module can be tested without a runner. The runner
 * reads stdout line by line and obeys any line that looks like `::command::`; every message here
 * may embed untrusted text (task ids, model ids, API messages), so each one is neutralised first:
 * a line can never start a workflow command, and control, bidi and invisible characters are shown
 * as `\u{…}`. Warnings and errors additionally go through @actions/core's own escaping.
 */
import { neutraliseLogLines } from "../core/report/escape.js";

export interface AnnotationProps {
  /** Repository-relative path. */
  readonly file?: string;
  readonly startLine?: number;
  readonly startColumn?: number;
  readonly title?: string;
}

export interface Logger {
  info(message: string): void;
  warning(message: string, props?: AnnotationProps): void;
  error(message: string, props?: AnnotationProps): void;
  debug(message: string): void;
  /**
   * Runs `fn` with its log folded under `name` (a fixed phase name, never untrusted text). The
   * runner does not nest groups: call it only at the top of the run.
   */
  group<T>(name: string, fn: () => Promise<T>): Promise<T>;
}

/** The subset of @actions/core the logger uses. */
export interface CoreLog {
  info(message: string): void;
  warning(message: string, props?: AnnotationProps): void;
  error(message: string, props?: AnnotationProps): void;
  debug(message: string): void;
  group<T>(name: string, fn: () => Promise<T>): Promise<T>;
}

export function createLogger(core: CoreLog): Logger {
  return {
    info: (m) => {
      core.info(neutraliseLogLines(m));
    },
    warning: (m, p) => {
      core.warning(neutraliseLogLines(m), p);
    },
    error: (m, p) => {
      core.error(neutraliseLogLines(m), p);
    },
    debug: (m) => {
      core.debug(neutraliseLogLines(m));
    },
    group: (name, fn) => core.group(neutraliseLogLines(name), fn),
  };
}

/** A logger that records messages, for tests. */
export interface RecordingLogger extends Logger {
  readonly lines: {
    readonly level: "info" | "warning" | "error" | "debug" | "group" | "endgroup";
    readonly message: string;
  }[];
}

export function createRecordingLogger(): RecordingLogger {
  const lines: RecordingLogger["lines"] = [];
  return {
    lines,
    info: (m) => lines.push({ level: "info", message: neutraliseLogLines(m) }),
    warning: (m) => lines.push({ level: "warning", message: neutraliseLogLines(m) }),
    error: (m) => lines.push({ level: "error", message: neutraliseLogLines(m) }),
    debug: (m) => lines.push({ level: "debug", message: neutraliseLogLines(m) }),
    group: async (name, fn) => {
      lines.push({ level: "group", message: name });
      try {
        return await fn();
      } finally {
        lines.push({ level: "endgroup", message: name });
      }
    },
  };
}
