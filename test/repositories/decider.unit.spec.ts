import { describe, expect, it } from "vitest";
import { repositoryDecider, repositoryStateOf, repositoryStream } from "../../src/features/repositories/decider.ts";
import type { RepositoryDecidedEvent } from "../../src/features/repositories/events.ts";
import { deciderSpec } from "../support/decider.ts";

const { given } = deciderSpec(repositoryDecider);
const job = { repoId: "github:main:acme/api", orgId: "org1", jobId: "j1" };
const sha = "a".repeat(40);
const submitted: RepositoryDecidedEvent = {
  type: "RepositorySubmitted",
  data: { ...job, remote: "github", repository: "acme/api", branch: "main", resolvedBranch: "main", reload: false, notify: false, withToken: false },
};
const started = { branch: "main", sha, numFiles: 2, skipped: [], skippedCount: 0, chunkerVersion: "1" };
const batch = { branch: "main", sha, files: [{ path: "a.py", blobId: "b".repeat(40), language: "python", symbols: [], chunks: 1, reused: false }] };
const completed = { branch: "main", sha, filesProcessed: 2, numFiles: 2, sampleQuestions: [] };
const startedEvent: RepositoryDecidedEvent = { type: "RepositoryIndexingStarted", data: { ...job, ...started } };

describe("repository decider", () => {
  it("names the stream by organisation and repository", () => {
    expect(repositoryStream("org1", "github:main:acme/api")).toBe("repository-org1-github:main:acme/api");
  });

  it("submits a repository, new or again (a new job supersedes the last)", () => {
    given([]).when({ type: "SubmitRepository", submission: submitted.data as never }).then([submitted]);
    const again = { ...submitted.data, jobId: "j2", reload: true } as never;
    given([submitted, startedEvent]).when({ type: "SubmitRepository", submission: again }).then([{ type: "RepositorySubmitted", data: again }]);
  });

  it("runs a job: started, files recorded, completed", () => {
    given([submitted]).when({ type: "StartIndexing", jobId: "j1", started }).then([startedEvent]);
    given([submitted, startedEvent]).when({ type: "RecordIndexedFiles", jobId: "j1", batch }).then([{ type: "RepositoryFilesIndexed", data: { ...job, ...batch } }]);
    given([submitted, startedEvent]).when({ type: "CompleteIndexing", jobId: "j1", completed }).then([{ type: "RepositoryIndexingCompleted", data: { ...job, ...completed } }]);
  });

  it("fails a job that has not finished, with the reason", () => {
    given([submitted]).when({ type: "FailIndexing", jobId: "j1", failure: { branch: "main", reason: "Branch not found: main" } }).then([
      { type: "RepositoryIndexingFailed", data: { ...job, branch: "main", reason: "Branch not found: main" } },
    ]);
  });

  it("refuses commands of a superseded job, of an unknown repository, or out of order", () => {
    const resubmitted = { ...submitted, data: { ...submitted.data, jobId: "j2" } } as RepositoryDecidedEvent;
    given([submitted, resubmitted]).when({ type: "StartIndexing", jobId: "j1", started }).thenFails("conflict", /superseded by job j2/);
    given([]).when({ type: "StartIndexing", jobId: "j1", started }).thenFails("not_found");
    given([submitted]).when({ type: "RecordIndexedFiles", jobId: "j1", batch }).thenFails("conflict", /submitted, not processing/);
    given([submitted]).when({ type: "CompleteIndexing", jobId: "j1", completed }).thenFails("conflict");
    const done: RepositoryDecidedEvent = { type: "RepositoryIndexingCompleted", data: { ...job, ...completed } };
    given([submitted, startedEvent, done]).when({ type: "FailIndexing", jobId: "j1", failure: { branch: "main", reason: "x" } }).thenFails("conflict", /already completed/);
    given([submitted, startedEvent, done]).when({ type: "StartIndexing", jobId: "j1", started }).thenFails("conflict");
  });

  it("a restarted job starts again at the commit it plans", () => {
    given([submitted, startedEvent]).when({ type: "StartIndexing", jobId: "j1", started: { ...started, numFiles: 3 } }).then([
      { type: "RepositoryIndexingStarted", data: { ...job, ...started, numFiles: 3 } },
    ]);
  });

  it("takes its state from the read model's record", () => {
    expect(repositoryStateOf(undefined)).toEqual({ exists: false });
    expect(repositoryStateOf({ ...job, status: "processing" })).toEqual({ exists: true, ...job, status: "processing" });
    expect(repositoryStateOf({ ...job, status: "cloning" })).toEqual({ exists: true, ...job, status: "submitted" });
  });
});
