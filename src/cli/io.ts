import type { YoungGeneration } from "../read/read-dataset.js";

/** What the CLI needs from the outside world, passed in so tests can run it in-process. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly cwd: string;
  readonly now: () => Date;
  /** A full garbage collection for large reads (src/io/full-collection.ts); absent: none asked. */
  readonly collectGarbage?: () => void;
  /** The young generation's cap for large reads (src/io/young-generation.ts); absent: none. */
  readonly youngGeneration?: YoungGeneration;
}
