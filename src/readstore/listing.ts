/**
 * Listing over read models as the faces page and filter them: limits and offsets clamped to a tool's
 * bounds, timestamps given as filters, and a plain lexical relevance for text searches.
 */
import { DomainError } from "../eventstore/decider.ts";

export function clampLimit(limit: number | undefined, defaults: { defaultLimit: number; maxLimit: number }): number {
  if (limit === undefined || !Number.isFinite(limit)) return defaults.defaultLimit;
  return Math.max(1, Math.min(defaults.maxLimit, Math.floor(limit)));
}

export const clampOffset = (offset: number | undefined) => (offset === undefined || !Number.isFinite(offset) ? 0 : Math.max(0, Math.floor(offset)));

/** A timestamp filter (`createdAfter`, ...): null when absent; an unreadable one is refused naming the field. */
export function parseTime(value: string | undefined, field: string): number | null {
  if (value === undefined || value === "") return null;
  const t = Date.parse(value);
  if (Number.isNaN(t)) throw new DomainError("invalid", `${field} must be an ISO 8601 timestamp`, field);
  return t;
}

export const byCreated = <T extends { createdAt: string }>(a: T, b: T) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0);

const tokenize = (text: string) => (text.toLowerCase().match(/[a-z0-9_]+/g) ?? []).filter((t) => t.length > 1);

/** Lexical relevance: matched query terms (each once), whole-phrase bonus; 0 = no match. */
export function lexicalScore(query: string, ...fields: (string | null | undefined)[]): number {
  const text = fields.filter((f): f is string => typeof f === "string").join("\n").toLowerCase();
  const terms = [...new Set(tokenize(query))];
  if (terms.length === 0) return 0;
  const words = new Set(tokenize(text));
  let score = 0;
  for (const t of terms) {
    if (words.has(t)) score += 2;
    else if (text.includes(t)) score += 1;
  }
  if (score > 0 && query.trim().length > 3 && text.includes(query.trim().toLowerCase())) score += terms.length;
  return score;
}

function levenshtein(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 3) return 99;
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j]!;
      prev[j] = Math.min(prev[j]! + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length]!;
}

/** Fuzzy login match: case-insensitive substring either way, ignoring `-_.[bot]`, or a small edit distance. */
export function fuzzyLoginMatch(login: string, query: string): boolean {
  const norm = (s: string) => s.toLowerCase().replace(/\[bot\]$/, "").replace(/[-_.\s]/g, "");
  const l = norm(login);
  const q = norm(query);
  if (q === "") return true;
  if (l.includes(q) || (l.length >= 3 && q.includes(l))) return true;
  return levenshtein(l, q) <= Math.max(1, Math.floor(q.length / 4));
}
