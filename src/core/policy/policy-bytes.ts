import { isUtf8 } from "node:buffer";
import { InputError } from "../errors.js";

/**
 * The policy's text from its bytes. Bytes that are not UTF-8 are an error naming the line:
 * decoding them as U+FFFD would alter the text shown (e.g. the owner) and the sha256 in the
 * provenance, which is computed over the text and would no longer match the file.
 */
export function decodePolicyText(bytes: Uint8Array, shownPath: string): string {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (isUtf8(buffer)) return buffer.toString("utf8");
  // The first byte where a lossy round trip differs is where the invalid sequence starts.
  const back = Buffer.from(buffer.toString("utf8"), "utf8");
  let i = 0;
  while (i < buffer.length && buffer[i] === back[i]) i++;
  const line = buffer.subarray(0, i).filter((b) => b === 0x0a).length + 1;
  throw new InputError(`Invalid policy file ${shownPath}: 1 problem`, [
    { location: { file: shownPath, line }, message: "the file is not valid UTF-8 text; save it as UTF-8." },
  ]);
}
