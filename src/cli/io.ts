import type { ReadThreads } from "../read/read-threads.js";

/** What the CLI needs from the outside world, passed in so tests can run it in-process. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly cwd: string;
  readonly now: () => Date;
  /** Read threads of the bundle (src/read/read-threads.ts); absent: read on the main thread. */
  readonly readThreads?: ReadThreads;
  /** A full garbage collection for large reads (src/io/full-collection.ts); absent: none asked. */
  readonly collectGarbage?: () => void;
  /** Debug notes (MODEL_GATE_DEBUG=1); absent: dropped. */
  readonly debug?: (text: string) => void;
}
