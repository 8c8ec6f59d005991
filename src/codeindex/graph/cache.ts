/**
 * Resolved branch graphs, kept per branch and rebuilt when the key the adapter gives changes (the
 * embedded index: the repository's write generation; Elasticsearch: a hash of the branch's file set and
 * of this process's graph writes). Concurrent requests for the same key share one build.
 */
import type { BranchGraph } from "./resolve.ts";

export type BranchGraphCache = {
  get(branchId: string, key: string, build: () => Promise<BranchGraph>): Promise<BranchGraph>;
  clear(): void;
};

export function createBranchGraphCache(limit = 16): BranchGraphCache {
  const entries = new Map<string, { key: string; graph: Promise<BranchGraph> }>();
  return {
    get(branchId, key, build) {
      const hit = entries.get(branchId);
      if (hit && hit.key === key) {
        entries.delete(branchId);
        entries.set(branchId, hit); // LRU order
        return hit.graph;
      }
      const graph = build();
      const entry = { key, graph };
      entries.delete(branchId);
      entries.set(branchId, entry);
      graph.catch(() => {
        if (entries.get(branchId) === entry) entries.delete(branchId);
      });
      if (entries.size > limit) entries.delete(entries.keys().next().value!);
      return graph;
    },
    clear: () => entries.clear(),
  };
}
