/** Small text helpers the graph findings share. */

/** The folder of a repository path, without its trailing slash ("" at the root). */
export const dirOf = (path: string): string => path.slice(0, Math.max(0, path.lastIndexOf("/")));

/** `text` with the characters a regular expression reads specially escaped. */
export const regexEscaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
