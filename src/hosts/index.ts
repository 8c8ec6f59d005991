/**
 * Git hosts behind neutral types. `createHosts(config).get(remote)` returns the Host for a remote;
 * only the neutral types in ./types.ts cross this boundary.
 */
import { createAzureHost } from "./azure.ts";
import { createBitbucketHost } from "./bitbucket.ts";
import { createGitHubHost } from "./github.ts";
import { createGitLabHost } from "./gitlab.ts";
import { REMOTES, type Host, type HostOptions, type Remote } from "./types.ts";

export type HostsConfig = Partial<Record<Remote, HostOptions>>;

export type Hosts = {
  get(remote: Remote): Host;
};

export function isRemote(value: unknown): value is Remote {
  return typeof value === "string" && (REMOTES as readonly string[]).includes(value);
}

export function createHosts(config: HostsConfig = {}): Hosts {
  const hosts: Record<Remote, Host> = {
    github: createGitHubHost(config.github),
    gitlab: createGitLabHost(config.gitlab),
    bitbucket: createBitbucketHost(config.bitbucket),
    azure: createAzureHost(config.azure),
  };
  return {
    get(remote) {
      if (!isRemote(remote)) throw new Error(`unknown remote: ${String(remote)}`);
      return hosts[remote];
    },
  };
}

export { createAzureHost, parseAzureRepo } from "./azure.ts";
export { createBitbucketHost } from "./bitbucket.ts";
export { createGitHubHost } from "./github.ts";
export { createGitLabHost } from "./gitlab.ts";
export { HostError } from "./errors.ts";
export { REMOTES } from "./types.ts";
export type * from "./types.ts";
