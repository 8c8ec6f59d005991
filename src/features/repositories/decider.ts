/**
 * The repository aggregate: one indexed (remote, branch, repository) of an organisation and its
 * indexing jobs. A job runs Submitted -> IndexingStarted -> FilesIndexed* -> Completed | Failed; a new
 * submission starts a new job and supersedes the one before. Stream: `repository-<orgId>-<repoId>`.
 *
 * The indexer decides from the job's own state, not by reading the stream before each append (a job
 * records hundreds of FilesIndexed events): it starts from the read model's record of the repository
 * (its projection is this fold) and folds in each event it appends.
 */
import { DomainError, type Decider } from "../../eventstore/decider.ts";
import type { RepositoryDecidedEvent } from "./events.ts";

type Data<T extends RepositoryDecidedEvent["type"]> = Extract<RepositoryDecidedEvent, { type: T }>["data"];
type JobData<T extends RepositoryDecidedEvent["type"]> = Omit<Data<T>, "repoId" | "orgId" | "jobId">;

export const repositoryStream = (orgId: string, repoId: string) => `repository-${orgId}-${repoId}`;

export type RepositoryCommand =
  | { type: "SubmitRepository"; submission: Data<"RepositorySubmitted"> }
  | { type: "StartIndexing"; jobId: string; started: JobData<"RepositoryIndexingStarted"> }
  | { type: "RecordIndexedFiles"; jobId: string; batch: JobData<"RepositoryFilesIndexed"> }
  | { type: "CompleteIndexing"; jobId: string; completed: JobData<"RepositoryIndexingCompleted"> }
  | { type: "FailIndexing"; jobId: string; failure: JobData<"RepositoryIndexingFailed"> };

export type JobStatus = "submitted" | "processing" | "completed" | "failed";
export type RepositoryState =
  | { exists: false }
  | { exists: true; repoId: string; orgId: string; jobId: string; status: JobStatus };

export const repositoryDecider: Decider<RepositoryCommand, RepositoryState, RepositoryDecidedEvent> = {
  initialState: () => ({ exists: false }),
  evolve(state, event) {
    if (event.type === "RepositorySubmitted") {
      const { repoId, orgId, jobId } = event.data;
      return { exists: true, repoId, orgId, jobId, status: "submitted" };
    }
    if (!state.exists || state.jobId !== event.data.jobId) return state; // an event of a superseded job
    switch (event.type) {
      case "RepositoryIndexingStarted":
        return { ...state, status: "processing" };
      case "RepositoryIndexingCompleted":
        return { ...state, status: "completed" };
      case "RepositoryIndexingFailed":
        return { ...state, status: "failed" };
      default:
        return state;
    }
  },
  decide(command, state) {
    if (command.type === "SubmitRepository") return [{ type: "RepositorySubmitted", data: command.submission }];
    if (!state.exists) throw new DomainError("not_found", `Repository job ${command.jobId} was never submitted`);
    if (state.jobId !== command.jobId) throw new DomainError("conflict", `Job ${command.jobId} was superseded by job ${state.jobId}`);
    const job = { repoId: state.repoId, orgId: state.orgId, jobId: state.jobId };
    const finished = state.status === "completed" || state.status === "failed";
    switch (command.type) {
      case "StartIndexing":
        // A job restarted after a stop starts again (processing -> processing at the commit it now plans).
        if (finished) throw new DomainError("conflict", `Job ${command.jobId} is already ${state.status}`);
        return [{ type: "RepositoryIndexingStarted", data: { ...job, ...command.started } }];
      case "RecordIndexedFiles":
        if (state.status !== "processing") throw new DomainError("conflict", `Job ${command.jobId} is ${state.status}, not processing`);
        return [{ type: "RepositoryFilesIndexed", data: { ...job, ...command.batch } }];
      case "CompleteIndexing":
        if (state.status !== "processing") throw new DomainError("conflict", `Job ${command.jobId} is ${state.status}, not processing`);
        return [{ type: "RepositoryIndexingCompleted", data: { ...job, ...command.completed } }];
      case "FailIndexing":
        if (finished) throw new DomainError("conflict", `Job ${command.jobId} is already ${state.status}`);
        return [{ type: "RepositoryIndexingFailed", data: { ...job, ...command.failure } }];
    }
  },
};

/** The state of a repository as its read model record shows it (the projection is this fold). */
export function repositoryStateOf(record: { repoId: string; orgId: string; jobId: string; status: string } | undefined): RepositoryState {
  if (!record) return { exists: false };
  const status: JobStatus = record.status === "completed" || record.status === "failed" || record.status === "processing" ? record.status : "submitted";
  return { exists: true, repoId: record.repoId, orgId: record.orgId, jobId: record.jobId, status };
}
