/**
 * The results of the console's searches, kept for the search's own page. The form's POST runs the
 * search once and records it as a turn of its query session, then sends the browser to the search's
 * GET address, which names that turn: the page shows these results without searching again, and so do
 * Back and Reload. In memory and bounded (by count and by the bytes of their code): a page whose
 * results are gone (a restart, many searches since) or that names no turn (a URL typed or shared)
 * searches again, and records nothing.
 */
import { LRUCache } from "lru-cache";
import type { CodeReference } from "../../features/code-search/service.ts";

/** What a search's page was asked for: its results are shown only for the same question. */
export type SearchAsked = { orgId: string; sessionId: string; query: string; repoIds: readonly string[] };

type Kept = SearchAsked & { references: CodeReference[] };

const MAX_SEARCHES = 200;
const MAX_BYTES = 32 * 1024 * 1024;

export const TURN_ID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

export function createSearchResults() {
  const kept = new LRUCache<string, Kept>({
    max: MAX_SEARCHES,
    maxSize: MAX_BYTES,
    sizeCalculation: (k) => 1 + k.query.length + k.references.reduce((n, r) => n + r.code.length + r.filepath.length + r.reason.length + 100, 0),
  });
  const keyOf = (orgId: string, turnId: string) => `${orgId}\0${turnId}`;
  const same = (a: SearchAsked, b: SearchAsked) =>
    a.orgId === b.orgId && a.sessionId === b.sessionId && a.query === b.query && a.repoIds.length === b.repoIds.length && a.repoIds.every((id, i) => id === b.repoIds[i]);

  return {
    /** Keeps the results of the search recorded as `turnId`. */
    keep(turnId: string, asked: SearchAsked, references: CodeReference[]): void {
      kept.set(keyOf(asked.orgId, turnId), { ...asked, repoIds: [...asked.repoIds], references });
    },
    /** The results kept for `turnId`, when they answer the same question in the same organisation. */
    find(turnId: string, asked: SearchAsked): CodeReference[] | undefined {
      const found = kept.get(keyOf(asked.orgId, turnId));
      return found && same(found, asked) ? found.references : undefined;
    },
  };
}
