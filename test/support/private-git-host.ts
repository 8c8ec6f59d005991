/**
 * A git host with private repositories, on 127.0.0.1: git's smart HTTP protocol (`git http-backend`
 * behind a check of GitHub's git credentials, Basic `x-access-token:<token>`) and GitHub's
 * `GET /repos/{o}/{r}` (anonymous callers get 404 for a private repository, the token's holder gets
 * `permissions.pull`). A stand-in for the host, not for any part of Loupe: point LOUPE_GITHUB_URL at
 * `gitBase` and LOUPE_GITHUB_API_URL at `apiBase`. It records which git requests carried the token.
 */
import { spawn } from "node:child_process";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createGitHostFixture, type FileSpec, type WorkRepo } from "./git-fixtures.ts";

export type PrivateGitHost = {
  /** LOUPE_GITHUB_URL: clone URLs are `<gitBase>/<owner>/<repo>.git`. */
  gitBase: string;
  /** LOUPE_GITHUB_API_URL. */
  apiBase: string;
  /** The one token that reads the private repositories. */
  token: string;
  createRepo(fullName: string, files: FileSpec, options: { private: boolean }): WorkRepo;
  /** Git requests by repository, and whether each carried the token. */
  gitRequests: { repository: string; authorized: boolean }[];
  close(): Promise<void>;
};

const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { "Content-Type": "application/json", ...headers });
  res.end(JSON.stringify(body));
};

export async function startPrivateGitHost(token = "ghp_private_host_token_0123456789abcdef"): Promise<PrivateGitHost> {
  const fixture = createGitHostFixture();
  const privateRepos = new Set<string>();
  const known = new Set<string>();
  const gitRequests: PrivateGitHost["gitRequests"] = [];
  const gitCredential = `Basic ${Buffer.from(`x-access-token:${token}`).toString("base64")}`;

  /** `git http-backend` as a CGI program for one request. */
  function backend(req: IncomingMessage, res: ServerResponse, pathInfo: string, query: string) {
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      GIT_PROJECT_ROOT: fixture.baseDir,
      GIT_HTTP_EXPORT_ALL: "1",
      REQUEST_METHOD: req.method ?? "GET",
      PATH_INFO: pathInfo,
      QUERY_STRING: query,
      CONTENT_TYPE: req.headers["content-type"] ?? "",
      REMOTE_USER: "x-access-token",
      REMOTE_ADDR: "127.0.0.1",
      ...(req.headers["content-encoding"] ? { HTTP_CONTENT_ENCODING: String(req.headers["content-encoding"]) } : {}),
      ...(req.headers["git-protocol"] ? { GIT_PROTOCOL: String(req.headers["git-protocol"]) } : {}),
    };
    const child = spawn("git", ["http-backend"], { env });
    req.pipe(child.stdin);
    let head = Buffer.alloc(0);
    let started = false;
    child.stdout.on("data", (chunk: Buffer) => {
      if (started) return void res.write(chunk);
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf("\r\n\r\n");
      if (end < 0) return;
      started = true;
      let status = 200;
      const headers: Record<string, string> = {};
      for (const line of head.subarray(0, end).toString("utf8").split("\r\n")) {
        const colon = line.indexOf(":");
        const name = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (name.toLowerCase() === "status") status = Number.parseInt(value, 10);
        else headers[name] = value;
      }
      res.writeHead(status, headers);
      res.write(head.subarray(end + 4));
    });
    child.on("close", () => {
      if (!started) send(res, 500, { message: "git http-backend answered nothing" });
      else res.end();
    });
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const git = /^\/git(\/([^/]+)\/([^/]+)\.git\/.*)$/.exec(url.pathname);
    if (git) {
      const repository = `${git[2]}/${git[3]}`;
      const authorized = req.headers.authorization === gitCredential;
      gitRequests.push({ repository, authorized });
      if (!known.has(repository)) return send(res, 404, { message: "Repository not found." });
      if (privateRepos.has(repository) && !authorized) return send(res, 401, { message: "Authentication required" }, { "WWW-Authenticate": 'Basic realm="private host"' });
      return backend(req, res, git[1]!, url.search.slice(1));
    }
    const api = /^\/api\/repos\/([^/]+)\/([^/]+)$/.exec(url.pathname);
    if (api) {
      const repository = `${api[1]}/${api[2]}`;
      const withToken = req.headers.authorization === `Bearer ${token}`;
      if (!known.has(repository) || (privateRepos.has(repository) && !withToken)) return send(res, 404, { message: "Not Found" });
      return send(res, 200, { full_name: repository, private: privateRepos.has(repository), ...(withToken ? { permissions: { pull: true } } : {}) });
    }
    send(res, 404, { message: "Not Found" });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    gitBase: `${base}/git`,
    apiBase: `${base}/api`,
    token,
    gitRequests,
    createRepo(fullName, files, options) {
      known.add(fullName);
      if (options.private) privateRepos.add(fullName);
      return fixture.createRepo(fullName, files);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => {
          fixture.cleanup();
          if (err) reject(err);
          else resolve();
        });
      }),
  };
}
