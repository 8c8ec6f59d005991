/**
 * Rebuilding the code index from the log and the mirrors: the blobs named by RepositoryFilesIndexed
 * events that are missing from the index are chunked again (their code graphs made by the same parse),
 * and each branch's file set restored.
 */
import type { Logger } from "../../logging.ts";
import type { EventStore } from "../../eventstore/port.ts";
import type { CodeIndex, BranchFile } from "../../codeindex/port.ts";
import type { Embedder } from "../../models/embedder.ts";
import { filesDocuments, filesGraphs } from "../../indexing/documents.ts";
import { createParsePool, type ParsePool } from "../../indexing/chunking/pool.ts";
import { codeIndexRepoId } from "../../indexing/repo-id.ts";
import type { GitMirrors } from "../../git/mirrors.ts";
import { isRepositoryEvent } from "./events.ts";

export type RebuildReport = { blobsChecked: number; blobsRechunked: number; branchesRestored: number; missingMirrors: string[] };

/**
 * Idempotent: for every RepositoryFilesIndexed event, re-chunks from the mirror the blobs missing from
 * the code index, then restores each completed job's branch file set. Run with the service stopped
 * (the embedded index has one writer): `npx tsx scripts/rebuild-code-index.ts`.
 */
export async function rebuildCodeIndex(deps: {
  eventStore: EventStore;
  codeIndex: CodeIndex;
  mirrors: GitMirrors;
  pool?: ParsePool;
  embedder?: Embedder | null;
  logger?: Logger;
}): Promise<RebuildReport> {
  const { eventStore, codeIndex, mirrors } = deps;
  const pool = deps.pool ?? createParsePool();
  const report: RebuildReport = { blobsChecked: 0, blobsRechunked: 0, branchesRestored: 0, missingMirrors: [] };
  type JobFiles = { orgId: string; remote: string; repository: string; files: Map<string, string> };
  const jobRepos = new Map<string, { remote: string; repository: string }>();
  const jobFiles = new Map<string, JobFiles>();
  const branchSets: { indexRepo: string; branch: string; files: BranchFile[] }[] = [];
  try {
    let from = 0;
    for (;;) {
      const read = await eventStore.readAll({ fromPosition: from, maxCount: 1000 });
      if (read.length === 0) break;
      from = read[read.length - 1]!.position;
      const events = read.filter(isRepositoryEvent);
      for (const event of events) {
        const jobId = event.data.jobId;
        if (event.type === "RepositorySubmitted") jobRepos.set(jobId, { remote: event.data.remote, repository: event.data.repository });
        else if (event.type === "RepositoryFilesIndexed") {
          const repo = jobRepos.get(jobId);
          if (!repo) continue;
          let entry = jobFiles.get(jobId);
          if (!entry) jobFiles.set(jobId, (entry = { orgId: event.data.orgId, ...repo, files: new Map() }));
          const newFiles: { path: string; blobId: string }[] = [];
          for (const f of event.data.files) {
            entry.files.set(f.path, f.blobId);
            newFiles.push(f);
          }
          await restoreBlobs(entry, newFiles);
        } else if (event.type === "RepositoryIndexingCompleted") {
          const entry = jobFiles.get(jobId);
          const repo = jobRepos.get(jobId);
          if (!repo) continue;
          const indexRepo = codeIndexRepoId(event.data.orgId, repo.remote, repo.repository);
          branchSets.push({ indexRepo, branch: event.data.branch, files: entry ? [...entry.files].map(([path, blobId]) => ({ path, blobId })) : [] });
          jobFiles.delete(jobId);
        } else if (event.type === "RepositoryIndexingFailed") jobFiles.delete(jobId);
      }
    }
    // Later completions of the same branch win.
    const latest = new Map<string, (typeof branchSets)[number]>();
    for (const set of branchSets) latest.set(`${set.indexRepo}\u0000${set.branch}`, set);
    for (const set of latest.values()) {
      await codeIndex.setBranchFiles(set.indexRepo, set.branch, set.files);
      report.branchesRestored++;
    }
    return report;
  } finally {
    if (!deps.pool) await pool.destroy();
  }

  async function restoreBlobs(entry: JobFiles, files: { path: string; blobId: string }[]) {
    const indexRepo = codeIndexRepoId(entry.orgId, entry.remote, entry.repository);
    const missing: { path: string; blobId: string }[] = [];
    for (const f of files) {
      report.blobsChecked++;
      if (!(await codeIndex.hasBlob(indexRepo, f.path, f.blobId))) missing.push(f);
    }
    if (missing.length === 0) return;
    if (!mirrors.exists(entry.remote, entry.repository)) {
      const name = `${entry.remote}:${entry.repository}`;
      if (!report.missingMirrors.includes(name)) report.missingMirrors.push(name);
      return;
    }
    const dir = mirrors.mirrorDir(entry.remote, entry.repository);
    const blobs = await mirrors.readBlobs(dir, missing.map((m) => m.blobId));
    const sources = missing.map((m) => ({ path: m.path, content: (blobs.get(m.blobId) ?? Buffer.alloc(0)).toString("utf8") }));
    const chunked = await pool.chunkFiles(sources, { terms: codeIndex.takesDocumentTerms === true });
    const placed = missing.map((m, i) => {
      const file = chunked[i]!;
      return { file, at: { orgId: entry.orgId, repoId: indexRepo, path: m.path, blobId: m.blobId, language: file.language } };
    });
    const { docs, terms } = filesDocuments(placed);
    if (deps.embedder && docs.length > 0) {
      const vectors = await deps.embedder.embed(docs.map((d) => `${d.path}\n${d.summary}\n${d.text}`.slice(0, 8000)));
      docs.forEach((d, i) => (d.vector = vectors[i]));
    }
    await Promise.all([codeIndex.upsertChunks(docs, terms ? { terms } : {}), codeIndex.upsertGraphs(filesGraphs(placed))]);
    report.blobsRechunked += missing.length;
  }
}
