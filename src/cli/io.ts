import type { YoungGeneration } from "../read/read-dataset.js";

/** What the CLI needs from the outside world, passed in so tests can run it in-process. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly cwd: string;
  readonly now: () => Date;
  /** A full garbage collection for large reads (src/io/full-collection.ts); absent: none asked. */
  readonly collectGarbage?: () => void;
  /** What large reads ask of the young generation (src/io/young-generation.ts); absent: nothing. */
  readonly youngGeneration?: YoungGeneration;
}
