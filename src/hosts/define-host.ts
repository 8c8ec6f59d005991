/**
 * The skeleton every git host shares: the REST API base (the public one unless configured), one HTTP
 * client (timeouts, retries, pagination helpers; ./shared.ts), the API token as an Authorization header,
 * and git's auth environment built from the host's git header. A host definition supplies what differs:
 * its headers and token scheme, and (`build`) its webhook parsing and REST calls over that client.
 */
import { createHttpClient, gitEnvFor, trimSlash, type HttpClient } from "./shared.ts";
import type { Host, HostOptions, Remote } from "./types.ts";

export type HostContext = {
  remote: Remote;
  /** REST API base, no trailing slash. */
  apiBase: string;
  http: HttpClient;
  /** The Authorization header for an API token (undefined: anonymous). */
  auth(token: string | undefined): string | undefined;
};

export type HostDefinition = {
  remote: Remote;
  defaultApiBase: string;
  /** Headers of every API call (besides Authorization). */
  headers: Record<string, string>;
  /** The Authorization header value of an API token. */
  authorization(token: string): string;
  /** Everything else of the host: webhooks, REST calls, clone URLs, git's auth header. */
  build(context: HostContext): Omit<Host, "remote" | "apiBase" | "gitAuthEnv">;
};

/** A host factory from its definition: `createXHost(options)` gives the neutral `Host`. */
export function defineHost(definition: HostDefinition): (options?: HostOptions) => Host {
  return (options = {}) => {
    const { remote } = definition;
    const apiBase = trimSlash(options.apiBase ?? definition.defaultApiBase);
    const http = createHttpClient({
      remote,
      apiBase,
      timeoutMs: options.timeoutMs,
      fetch: options.fetch,
      retries: options.retries,
      retryDelayMs: options.retryDelayMs,
      defaultHeaders: definition.headers,
    });
    const auth = (token: string | undefined) => (token ? definition.authorization(token) : undefined);
    const host = definition.build({ remote, apiBase, http, auth });
    return { remote, apiBase, ...host, gitAuthEnv: (token) => gitEnvFor(host.gitAuthHeader(token)) };
  };
}
