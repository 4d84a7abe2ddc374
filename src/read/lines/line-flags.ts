/** Flags of a line handed over as bytes (line-splitter.ts's ByteLineHandler). */

/** The line holds no backslash, DEL or U+0080–U+00BF: none of its JSON strings can hold a
 * control character (see line-splitter.ts's LineHandler). */
export const LINE_PLAIN = 1;
/** Every byte of the line is below 0x80. */
export const LINE_ASCII = 2;
