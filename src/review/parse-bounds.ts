/** What the review's own parses of a changed file (outline, calls) allow, and the offsets of its rows. */

/** Files longer than this are not parsed for a review. */
export const MAX_PARSED_CHARS = 1_000_000;
/** A parse taking longer than this is given up. */
export const PARSE_TIMEOUT_MS = 2_000;

/** The character offset at which each line starts, and one past the end. */
export const rowOffsetsOf = (lines: readonly string[]): number[] => {
  const offsets: number[] = [];
  let offset = 0;
  for (const line of lines) {
    offsets.push(offset);
    offset += line.length + 1;
  }
  offsets.push(offset);
  return offsets;
};
