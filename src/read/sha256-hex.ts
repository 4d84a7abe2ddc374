import { createHash } from "node:crypto";

/**
 * SHA-256 of a string's UTF-8 bytes, as lowercase hex: the policy's digest, and the digest the
 * shells give the core for a run summary's digests (src/core/run-history/run-summary.ts), which may not
 * import node:crypto itself.
 */
export function sha256Hex(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}
