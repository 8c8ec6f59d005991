/**
 * Index terms of a run of chunk documents, in the embedded index's posting encoding (postings.ts), so
 * that they can be computed where the chunks are made (the parse workers) and the thread writing the
 * index only copies bytes: tokenising and counting 40 MB of source was the largest share of the
 * writer's time.
 *
 * The documents of one DocumentTerms get consecutive ordinals when they are stored, so a term's
 * entries can be encoded before the ordinals are known: each entry's delta is taken between local
 * document indexes (the first entry's "delta" is its local index), which equals the delta between
 * their ordinals. The writer re-encodes only the first delta of each term (appendRun in postings.ts).
 * The embedded index runs the same function on its own thread for documents given without terms, so
 * there is one analysis, wherever it runs.
 */
import { FIELDS, FIELD_COUNT, type IndexedFields } from "./fields.ts";
import type { DocumentTerms } from "./port.ts";
import { quantiseLength } from "./embedded/postings.ts";
import { splitWord } from "./tokenize.ts";
import { createWordTable } from "./word-table.ts";


/** Term frequencies saturate here (they are stored per field; the posting varint could hold more). */
const MAX_TF = 0xffff;
/** Longest payload: mask + per field a varint of at most 3 bytes (tf <= 0xffff) and a length byte. */
const MAX_PAYLOAD = 1 + FIELD_COUNT * 4;

// Scratch state reused across calls (one analysis at a time per thread: the function is synchronous).
let tfs = new Uint32Array(FIELD_COUNT * 1024);
let lastDoc = new Int32Array(1024);
let touched = new Int32Array(256);
let entryTerm = new Int32Array(4096);
let entryDoc = new Int32Array(4096);
let entryAt = new Int32Array(4096);
let payloads = new Uint8Array(64 * 1024);

// Words (word-table.ts ids) -> global term ids (one id, or several, or NO_TERMS), so a word seen before
// costs one lookup however many tokens it has; each call maps global ids to its own (stamp[gid] ===
// call: localOf[gid] is the local id). Bounded: cleared between calls when large.
const WORD_LIMIT = 200_000;
const NO_TERMS = -1;
const words = createWordTable();
let wordGids: (number | number[])[] = [];
let termGids = new Map<string, number>();
let gidTerms: string[] = [];
let stamp = new Int32Array(4096);
let localOf = new Int32Array(4096);
let call = 0;

const gidOf = (term: string): number => {
  let gid = termGids.get(term);
  if (gid === undefined) {
    gid = gidTerms.length;
    termGids.set(term, gid);
    gidTerms.push(term);
    if (stamp.length <= gid) {
      stamp = grownInt32(stamp, gid + 1);
      localOf = grownInt32(localOf, gid + 1);
    }
  }
  return gid;
};

const gidsOf = (wordId: number): number | number[] => {
  let gids = wordGids[wordId];
  if (gids === undefined) {
    const tokens = splitWord(words.word(wordId));
    gids = tokens.length === 0 ? NO_TERMS : tokens.length === 1 ? gidOf(tokens[0]!) : tokens.map(gidOf);
    wordGids[wordId] = gids;
  }
  return gids;
};

function grownInt32(array: Int32Array<ArrayBuffer>, needed: number): Int32Array<ArrayBuffer> {
  if (array.length >= needed) return array;
  const grown = new Int32Array(Math.max(needed, array.length * 2));
  grown.set(array);
  return grown;
}

const varintLength = (value: number): number => (value < 0x80 ? 1 : value < 0x4000 ? 2 : value < 0x200000 ? 3 : value < 0x10000000 ? 4 : 5);

// State of the analysis in progress (module level rather than closures: the hot functions below keep
// one call target each, so the JIT optimises them once instead of re-optimising a fresh closure per call).
let terms: string[] = [];
let doc = 0;
let field = 0;
let touchedCount = 0;
let fieldIds: number[] = [];
let entries = 0;
let payloadLength = 0;

function count(id: number): void {
  if (lastDoc[id] !== doc) {
    lastDoc[id] = doc;
    if (touchedCount === touched.length) touched = grownInt32(touched, touchedCount + 1);
    touched[touchedCount++] = id;
  }
  const at = id * FIELD_COUNT + field;
  if (tfs[at]! < MAX_TF) tfs[at]!++;
}

function localTerm(gid: number): number {
  const id = terms.length;
  stamp[gid] = call;
  localOf[gid] = id;
  terms.push(gidTerms[gid]!);
  if (lastDoc.length <= id) {
    lastDoc = grownInt32(lastDoc, id + 1);
    const grown = new Uint32Array(lastDoc.length * FIELD_COUNT);
    grown.set(tfs);
    tfs = grown;
  }
  lastDoc[id] = -1;
  return id;
}

function countTerm(gid: number): void {
  const id = stamp[gid] === call ? localOf[gid]! : localTerm(gid);
  fieldIds.push(id);
  count(id);
}

function countWord(wordId: number): void {
  const gids = gidsOf(wordId);
  if (typeof gids === "number") {
    if (gids !== NO_TERMS) countTerm(gids);
  } else for (let i = 0; i < gids.length; i++) countTerm(gids[i]!);
}

function reserveEntries(needed: number, payloadBytes: number): void {
  if (entryTerm.length < needed) {
    entryTerm = grownInt32(entryTerm, needed);
    entryDoc = grownInt32(entryDoc, needed);
  }
  if (entryAt.length < needed + 1) entryAt = grownInt32(entryAt, needed + 1);
  if (payloads.length < payloadLength + payloadBytes) {
    const grown = new Uint8Array(Math.max(payloads.length * 2, payloadLength + payloadBytes));
    grown.set(payloads); // whole (it is smaller than grown): no subarray view
    payloads = grown;
  }
}

/** One entry per distinct term of the current document: its payload goes to the shared payload buffer. */
function recordEntries(qlens: Uint8Array): void {
  reserveEntries(entries + touchedCount, touchedCount * MAX_PAYLOAD);
  for (let t = 0; t < touchedCount; t++) {
    const id = touched[t]!;
    entryTerm[entries] = id;
    entryDoc[entries] = doc;
    entryAt[entries] = payloadLength;
    entries++;
    const maskAt = payloadLength++;
    let mask = 0;
    const base = id * FIELD_COUNT;
    for (let f = 0; f < FIELD_COUNT; f++) {
      let tf = tfs[base + f]!;
      if (tf === 0) continue;
      tfs[base + f] = 0;
      mask |= 1 << f;
      while (tf >= 0x80) {
        payloads[payloadLength++] = (tf & 0x7f) | 0x80;
        tf >>>= 7;
      }
      payloads[payloadLength++] = tf;
      payloads[payloadLength++] = qlens[f]!;
    }
    payloads[maskAt] = mask;
  }
}

/** Counts the tokens of every document and records one entry per (document, term); returns the field length sums. */
function countDocuments(docs: readonly IndexedFields[]): number[] {
  const lengthSums = new Array<number>(FIELD_COUNT).fill(0);
  const lengths = new Array<number>(FIELD_COUNT).fill(0);
  const qlens = new Uint8Array(FIELD_COUNT);
  // A field value equal to the previous document's (path and file summary repeat for every chunk of
  // a file) replays that value's term ids instead of being tokenised again.
  const lastValue: (string | null)[] = new Array<string | null>(FIELD_COUNT).fill(null);
  const lastIds: number[][] = Array.from({ length: FIELD_COUNT }, () => []);
  for (doc = 0; doc < docs.length; doc++) {
    const current = docs[doc]!;
    touchedCount = 0;
    for (field = 0; field < FIELD_COUNT; field++) {
      const value = FIELDS[field]!.value(current);
      if (!value) {
        lengths[field] = 0;
        continue;
      }
      if (value === lastValue[field]) {
        const ids = lastIds[field]!;
        for (let i = 0; i < ids.length; i++) count(ids[i]!);
      } else {
        fieldIds = lastIds[field]!;
        fieldIds.length = 0;
        words.scan(value, countWord);
        lastValue[field] = value;
      }
      lengths[field] = lastIds[field]!.length;
    }
    for (let f = 0; f < FIELD_COUNT; f++) {
      qlens[f] = quantiseLength(lengths[f]!);
      lengthSums[f]! += lengths[f]!;
    }
    recordEntries(qlens);
  }
  entryAt[entries] = payloadLength;
  return lengthSums;
}

/** Groups the recorded entries by term (a counting sort keeps each term's entries in document order). */
function groupByTerm(docCount: number, lengthSums: number[]): DocumentTerms {
  const termCount = terms.length;
  const counts = new Uint32Array(termCount);
  for (let e = 0; e < entries; e++) counts[entryTerm[e]!]!++;
  const firstEntry = new Int32Array(termCount + 1);
  for (let t = 0; t < termCount; t++) firstEntry[t + 1] = firstEntry[t]! + counts[t]!;
  const order = new Int32Array(entries);
  const fill = firstEntry.slice(0, termCount);
  for (let e = 0; e < entries; e++) order[fill[entryTerm[e]!]!++] = e;
  let size = payloadLength;
  const previousDoc = new Int32Array(termCount);
  for (let e = 0; e < entries; e++) {
    const id = entryTerm[e]!;
    size += varintLength(entryDoc[e]! - previousDoc[id]!);
    previousDoc[id] = entryDoc[e]!;
  }
  const postings = new Uint8Array(size);
  const ends = new Uint32Array(termCount);
  const lasts = new Uint32Array(termCount);
  let p = 0;
  for (let t = 0; t < termCount; t++) {
    let previous = 0;
    for (let k = firstEntry[t]!; k < firstEntry[t + 1]!; k++) {
      const e = order[k]!;
      let delta = entryDoc[e]! - previous;
      previous = entryDoc[e]!;
      while (delta >= 0x80) {
        postings[p++] = (delta & 0x7f) | 0x80;
        delta >>>= 7;
      }
      postings[p++] = delta;
      const from = entryAt[e]!;
      const to = entryAt[e + 1]!;
      for (let b = from; b < to; b++) postings[p++] = payloads[b]!;
    }
    ends[t] = p;
    lasts[t] = previous;
  }
  return { docCount, termList: terms.join("\n"), ends, lasts, counts, postings, lengthSums };
}

/** The index terms of `docs`, which will be stored in this order with consecutive ordinals. */
export function analyseDocuments(docs: readonly IndexedFields[]): DocumentTerms {
  if (words.size() > WORD_LIMIT) {
    words.clear();
    wordGids = [];
    termGids = new Map();
    gidTerms = [];
  }
  call++;
  terms = [];
  entries = 0;
  payloadLength = 0;
  const lengthSums = countDocuments(docs);
  const result = groupByTerm(docs.length, lengthSums);
  terms = [];
  fieldIds = [];
  return result;
}
