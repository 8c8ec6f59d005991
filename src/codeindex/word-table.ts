/**
 * Ids for the words of texts (scanWords' words), without building a string per occurrence: the scan
 * hashes each word as it finds its end, and the table checks a candidate against the stored word
 * character by character. Only a word not seen before becomes a string. Indexing 40 MB of source
 * meets ~5M words but only ~130k distinct ones; a Map keyed by a fresh substring per word spent most
 * of the analysis time creating, hashing and probing those strings.
 */
import { scanWords } from "./tokenize.ts";

export type WordTable = {
  /** Calls `emit` with the id of every word of `text`, in order (ids count from 0 in order of first sight). */
  scan(text: string, emit: (id: number) => void): void;
  /** The word of an id. */
  word(id: number): string;
  /** Distinct words held. */
  size(): number;
  clear(): void;
};

const INITIAL_SLOTS = 1 << 16;

export function createWordTable(): WordTable {
  let slots = new Int32Array(INITIAL_SLOTS); // word id + 1, or 0 when free
  let mask = slots.length - 1;
  let hashes = new Int32Array(INITIAL_SLOTS / 2);
  let words: string[] = [];
  let emitId: (id: number) => void = () => {};

  const sameWord = (word: string, text: string, start: number, end: number): boolean => {
    if (word.length !== end - start) return false;
    for (let i = 0; i < word.length; i++) if (word.charCodeAt(i) !== text.charCodeAt(start + i)) return false;
    return true;
  };

  const grow = (): void => {
    const next = new Int32Array(slots.length * 2);
    const nextMask = next.length - 1;
    for (let id = 0; id < words.length; id++) {
      let at = hashes[id]! & nextMask;
      while (next[at] !== 0) at = (at + 1) & nextMask;
      next[at] = id + 1;
    }
    slots = next;
    mask = nextMask;
    const grownHashes = new Int32Array(next.length / 2);
    grownHashes.set(hashes);
    hashes = grownHashes;
  };

  const onWord = (text: string, start: number, end: number, hash: number): void => {
    let at = hash & mask;
    for (;;) {
      const slot = slots[at]!;
      if (slot === 0) break;
      if (hashes[slot - 1] === hash && sameWord(words[slot - 1]!, text, start, end)) {
        emitId(slot - 1);
        return;
      }
      at = (at + 1) & mask;
    }
    const id = words.length;
    words.push(text.slice(start, end));
    hashes[id] = hash;
    slots[at] = id + 1;
    if (words.length * 2 >= slots.length) grow(); // at most half full
    emitId(id);
  };

  return {
    scan(text, emit) {
      emitId = emit;
      scanWords(text, onWord);
    },
    word: (id) => words[id]!,
    size: () => words.length,
    clear() {
      slots = new Int32Array(INITIAL_SLOTS);
      mask = slots.length - 1;
      hashes = new Int32Array(INITIAL_SLOTS / 2);
      words = [];
    },
  };
}
