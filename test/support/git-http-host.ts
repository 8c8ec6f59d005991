/**
 * A git host over HTTP: git's own smart HTTP server (`git http-backend`, as CGI) serving the bare
 * repositories under `root` (`<root>/<owner>/<repo>.git`, as createHostRepo lays them out), with the
 * host's read permission decided per request by `canRead(authorization, path)`: a request it refuses gets
 * 401, as a private repository does for a token that cannot read it. Records every request's path and
 * Authorization header.
 */
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export type GitHttpHost = {
  base: string;
  requests: { path: string; authorization: string | undefined }[];
  close(): Promise<void>;
};

export async function startGitHttpHost(root: string, canRead: (authorization: string | undefined, path: string) => boolean): Promise<GitHttpHost> {
  const requests: GitHttpHost["requests"] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://host.invalid");
    requests.push({ path: url.pathname, authorization: req.headers.authorization });
    if (!canRead(req.headers.authorization, url.pathname)) {
      res.writeHead(401, { "www-authenticate": 'Basic realm="git"', "content-type": "text/plain" });
      res.end("Unauthorized");
      return;
    }
    const header = (name: string) => {
      const value = req.headers[name];
      return Array.isArray(value) ? value.join(", ") : (value ?? "");
    };
    const child = spawn("git", ["http-backend"], {
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: "1",
        REQUEST_METHOD: req.method ?? "GET",
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        CONTENT_TYPE: header("content-type"),
        HTTP_CONTENT_ENCODING: header("content-encoding"),
        GIT_PROTOCOL: header("git-protocol"),
        REMOTE_ADDR: "127.0.0.1",
      },
    });
    req.pipe(child.stdin);
    // CGI output: header lines, a blank line, then the body.
    let head = Buffer.alloc(0);
    let started = false;
    child.stdout.on("data", (chunk: Buffer) => {
      if (started) {
        res.write(chunk);
        return;
      }
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf("\r\n\r\n");
      if (end < 0) return;
      let status = 200;
      const headers: Record<string, string> = {};
      for (const line of head.subarray(0, end).toString("latin1").split("\r\n")) {
        const colon = line.indexOf(":");
        if (colon < 0) continue;
        const name = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (name.toLowerCase() === "status") status = Number.parseInt(value, 10) || 200;
        else headers[name] = value;
      }
      res.writeHead(status, headers);
      started = true;
      res.write(head.subarray(end + 4));
    });
    child.on("close", () => {
      if (!started) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
