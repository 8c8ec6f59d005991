/**
 * One contract for every git host adapter, run against each host's recorded payloads (its real or
 * documented webhook deliveries) and its recorded REST answers served by a local stand-in:
 * - a delivery carrying the right secret verifies; a wrong one and a missing one do not;
 * - each recorded delivery parses to the expected neutral event with its key fields, from the raw body
 *   as well as the parsed JSON, with the delivery id the host sent;
 * - an event type the host adapter does not handle is ignored with a reason;
 * - listing pull requests and checking read access against recorded answers give the neutral shapes,
 *   with the token sent as the host expects and never without one when it is given.
 */
import { describe, expect, it } from "vitest";
import type { Host, HostOptions, HostWebhookEvent, Remote } from "../../src/hosts/index.ts";
import { json, startHostServer, type Route } from "../support/host-server.ts";

export type ExpectedEvent =
  | { kind: "pull_request"; action: string; repository: string; number: number; headSha: string; title: string }
  | { kind: "review_comment"; action: string; repository: string; number: number; commentId: string; body: string; path: string | null; line: number | null }
  | { kind: "review_thread"; action: string; repository: string; number: number; commentIds: string[] };

export type RecordedHost = {
  remote: Remote;
  create(options?: HostOptions): Host;
  /** Headers that prove a delivery of `body` with `secret` (a signature, a token, Basic auth). */
  signed(body: string, secret: string): Record<string, string>;
  deliveries: { name: string; headers: Record<string, string>; body: Record<string, unknown>; deliveryId: string; expected: ExpectedEvent }[];
  /** A delivery of an event type the adapter does not handle. */
  unhandled: { headers: Record<string, string>; body: Record<string, unknown> };
  rest: {
    /** A repository name of this host's form. */
    repository: string;
    /** Answers in the host's shapes: one page of pull requests (two of them), and read access. */
    route(readable: boolean): Route;
    /** The pull requests the recorded page holds, as numbers and head shas. */
    listed: { number: number; headSha: string }[];
    /** The Authorization header the host expects for `token`. */
    authorization(token: string): string;
  };
};

const SECRET = "a shared secret for the contract";
const TOKEN = "host-token-for-the-contract-123";

function fieldsOf(event: HostWebhookEvent): ExpectedEvent | { kind: string } {
  switch (event.kind) {
    case "pull_request":
      return { kind: event.kind, action: event.action, repository: event.repository, number: event.pullRequest.number, headSha: event.pullRequest.headSha, title: event.pullRequest.title };
    case "review_comment":
      return { kind: event.kind, action: event.action, repository: event.repository, number: event.prNumber, commentId: event.comment.id, body: event.comment.body, path: event.comment.path, line: event.comment.line };
    case "review_thread":
      return { kind: event.kind, action: event.action, repository: event.repository, number: event.prNumber, commentIds: event.commentIds };
    default:
      return { kind: event.kind };
  }
}

export function hostContract(recorded: RecordedHost): void {
  const host = recorded.create();

  describe(`host contract: ${recorded.remote}`, () => {
    it("verifies a delivery with the right secret, and refuses a wrong or missing one", () => {
      const body = JSON.stringify(recorded.deliveries[0]!.body);
      expect(host.verifyWebhook(new Headers(recorded.signed(body, SECRET)), body, SECRET)).toBe(true);
      expect(host.verifyWebhook(new Headers(recorded.signed(body, SECRET)), new TextEncoder().encode(body), SECRET)).toBe(true);
      expect(host.verifyWebhook(new Headers(recorded.signed(body, "another secret")), body, SECRET)).toBe(false);
      expect(host.verifyWebhook(new Headers(), body, SECRET)).toBe(false);
      expect(host.verifyWebhook(new Headers(recorded.signed(body, "")), body, "")).toBe(false);
    });

    for (const delivery of recorded.deliveries) {
      it(`parses the recorded ${delivery.name} delivery, from the raw body and from JSON`, () => {
        const headers = new Headers(delivery.headers);
        const fromJson = host.parseWebhook(headers, delivery.body);
        expect(fieldsOf(fromJson)).toEqual(delivery.expected);
        expect(fromJson.remote).toBe(recorded.remote);
        expect(fromJson.deliveryId).toBe(delivery.deliveryId);
        expect(host.deliveryId(headers, delivery.body)).toBe(delivery.deliveryId);
        expect(host.parseWebhook(headers, JSON.stringify(delivery.body))).toEqual(fromJson);
      });
    }

    it("ignores an event type it does not handle, saying which", () => {
      const event = host.parseWebhook(new Headers(recorded.unhandled.headers), recorded.unhandled.body);
      expect(event.kind).toBe("ignored");
      expect(event.kind === "ignored" && event.reason).toMatch(/not handled/);
    });

    it("lists pull requests and checks read access against recorded answers, sending the token as the host expects", async () => {
      for (const readable of [true, false]) {
        const server = await startHostServer(recorded.rest.route(readable));
        try {
          const client = recorded.create({ apiBase: server.base, retries: 0 });
          const listed = await client.listPullRequests(recorded.rest.repository, TOKEN, { state: "all" });
          expect(listed.map((p) => ({ number: p.number, headSha: p.headSha }))).toEqual(recorded.rest.listed);
          expect(await client.checkReadAccess(recorded.rest.repository, TOKEN)).toBe(readable);
          expect(server.requests.length).toBeGreaterThanOrEqual(2);
          for (const request of server.requests) expect(request.headers.authorization).toBe(recorded.rest.authorization(TOKEN));
        } finally {
          await server.close();
        }
      }
    });

    it("builds clone URLs and git auth without the token in the URL", () => {
      const url = host.cloneUrl("https://git.example.com", recorded.rest.repository);
      expect(url.startsWith("https://git.example.com/")).toBe(true);
      expect(url).not.toContain(TOKEN);
      const env = host.gitAuthEnv(TOKEN);
      expect(Object.values(env).join(" ")).toContain(host.gitAuthHeader(TOKEN));
    });
  });
}

export { json };
