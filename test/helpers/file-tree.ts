import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A new temporary directory (its real path) holding `files` (`/`-separated, each "{}\n"). */
export function fileTree(prefix: string, files: readonly string[]): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  for (const f of files) {
    mkdirSync(join(dir, f, ".."), { recursive: true });
    writeFileSync(join(dir, f), "{}\n");
  }
  return dir;
}
