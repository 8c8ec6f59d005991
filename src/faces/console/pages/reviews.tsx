/** @jsxImportSource hono/jsx */
/** Pieces of the pull request and code review pages: comments, a review's progress and status timeline. */
import type { ReviewComment } from "../../../features/review-comments/queries.ts";
import type { CodeReviewRecord } from "../../../features/code-reviews/projection.ts";
import { Badge, Progress, Time } from "../layout.tsx";
import { CodeBlock, Markdown } from "../render.tsx";

/**
 * One comment. `tracked`: whether its addressed state counts in the review analysis (a service comment on
 * lines; not a review's summary, not a human's comment): only those carry an addressed/unaddressed badge.
 */
export function CommentItem(props: { c: ReviewComment; tracked: boolean }) {
  const { c } = props;
  return (
    <li class={`comment ${c.isGreptileComment ? "service" : "human"}`} data-comment-id={c.id}>
      <div class="comment-head">
        <strong>{c.authorLogin}</strong>
        {c.filePath ? (
          <span class="mono small">
            {" "}
            {c.filePath}
            {c.lineStart ? `:${c.lineStart}${c.lineEnd && c.lineEnd !== c.lineStart ? `-${c.lineEnd}` : ""}` : ""}
          </span>
        ) : (
          <span class="muted small"> overview</span>
        )}{" "}
        {props.tracked ? <Badge value={c.addressed ? "addressed" : "unaddressed"} /> : null} <Time at={c.createdAt} />
      </div>
      <Markdown text={c.body} class="comment-body" />
      {c.suggestedCode ? (
        <details>
          <summary>Suggested code</summary>
          <CodeBlock code={c.suggestedCode} path={c.filePath} firstLine={c.lineStart ?? 1} />
        </details>
      ) : null}
    </li>
  );
}

/** A review's history with repeats collapsed (one REVIEWING_FILES step per file reviewed becomes one). */
export const collapseHistory = <T extends { status: string }>(history: T[]): T[] => history.filter((h, i) => i === 0 || history[i - 1]!.status !== h.status);

export function Timeline(props: { history: { status: string; at: string; completedFiles?: number }[] }) {
  return (
    <ol class="timeline" data-field="timeline" aria-label="Status timeline">
      {collapseHistory(props.history).map((h) => (
        <li>
          <Badge value={h.status} /> <Time at={h.at} />
        </li>
      ))}
    </ol>
  );
}

/** A review's live block: status, files progress and timeline, updated by /console/live/reviews. */
export function ReviewProgress(props: { r: CodeReviewRecord; link?: boolean }) {
  const { r } = props;
  return (
    <div class="review" data-review-id={r.id}>
      <div>
        {props.link ? (
          <a href={`/console/reviews/${encodeURIComponent(r.id)}`} class="mono">
            {r.id.slice(0, 8)}
          </a>
        ) : null}{" "}
        <Badge value={r.status} field="status" /> <span class="muted small">strictness {r.metadata.strictness}</span>
      </div>
      <Progress value={r.metadata.completedFiles} max={r.metadata.totalFiles} label="Files reviewed" />
      <div class="failure small" data-field="reason" hidden={!r.reason}>
        {r.reason ?? ""}
      </div>
      <Timeline history={r.history} />
    </div>
  );
}
