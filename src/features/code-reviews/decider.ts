/** `codereview-<id>`: one code review's steps and the service comments each step made. */
export const codeReviewStream = (codeReviewId: string) => `codereview-${codeReviewId}`;
