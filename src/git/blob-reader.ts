/**
 * Blob contents through one long-lived `git cat-file --batch` process: requests are written to its
 * stdin and answered in order, so a job reading thousands of blobs in groups spawns git once. (Each
 * spawn from a process holding ~1 GB forks its page tables: ~30 ms of the caller's thread.)
 */
import { GitError, spawnGit } from "./run.ts";
import { GitNameError } from "./names.ts";

export type BlobReader = {
  /** The repository read from. */
  readonly dir: string;
  /** Contents by id; missing ids (and objects that are not blobs) are absent from the map. */
  read(blobIds: readonly string[]): Promise<Map<string, Buffer>>;
  /** Ends the git process; pending reads fail. */
  close(): void;
};

type Request = { remaining: number; result: Map<string, Buffer>; resolve(result: Map<string, Buffer>): void; reject(error: Error): void };

const OBJECT_ID = /^[0-9a-f]{40,64}$/;

export function createBlobReader(dir: string): BlobReader {
  let child: ReturnType<typeof spawnGit> | null = null;
  let failure: Error | null = null;
  let closed = false;
  const requests: Request[] = [];
  const pending: Buffer[] = [];
  let buffered = 0;
  let stderr = "";
  // Parser state: reading a header line, or `size` bytes of the current object (+ LF).
  let current: { id: string; size: number; parts: Buffer[]; got: number } | null = null;

  const take = (n: number): Buffer => {
    const out = Buffer.allocUnsafe(n);
    let at = 0;
    while (at < n) {
      const head = pending[0]!;
      const k = Math.min(head.length, n - at);
      head.copy(out, at, 0, k);
      at += k;
      if (k === head.length) pending.shift();
      else pending[0] = head.subarray(k);
    }
    buffered -= n;
    return out;
  };
  const indexOfNewline = (): number => {
    let offset = 0;
    for (const part of pending) {
      const i = part.indexOf(10);
      if (i >= 0) return offset + i;
      offset += part.length;
    }
    return -1;
  };
  const answered = (id: string | null, content: Buffer | null): void => {
    const request = requests[0];
    if (!request) return;
    if (id !== null && content !== null) request.result.set(id, content);
    if (--request.remaining === 0) {
      requests.shift();
      request.resolve(request.result);
    }
  };
  const drain = (): void => {
    for (;;) {
      if (current) {
        const need = current.size - current.got;
        if (need > 0) {
          const k = Math.min(need, buffered);
          if (k === 0) return;
          current.parts.push(take(k));
          current.got += k;
          if (current.got < current.size) return;
        }
        if (buffered < 1) return;
        take(1); // the LF after the contents
        const { id, parts } = current;
        current = null;
        answered(id || null, parts.length === 1 ? parts[0]! : Buffer.concat(parts));
        continue;
      }
      const nl = indexOfNewline();
      if (nl < 0) return;
      const header = take(nl + 1).toString("utf8").trimEnd();
      const [id, type, size] = header.split(" ");
      if (type === "missing" || type === "ambiguous" || size === undefined) {
        answered(null, null);
        continue;
      }
      current = { id: type === "blob" ? id! : "", size: Number(size), parts: [], got: 0 }; // non-blobs are read and dropped
    }
  };
  const fail = (error: Error): void => {
    failure ??= error;
    for (const request of requests.splice(0)) request.reject(failure);
  };
  const start = (): ReturnType<typeof spawnGit> => {
    const spawned = spawnGit(["cat-file", "--batch"], { cwd: dir });
    spawned.stdout.on("data", (data: Buffer) => {
      pending.push(data);
      buffered += data.length;
      drain();
    });
    spawned.stderr.on("data", (data: Buffer) => (stderr = (stderr + data.toString("utf8")).slice(0, 4000)));
    spawned.on("error", (error) => fail(error));
    spawned.on("close", (code) => {
      if (closed && requests.length === 0) return;
      fail(new GitError(`git cat-file --batch failed (exit code ${code}): ${stderr.trim()}`, ["cat-file", "--batch"], code, stderr, false));
    });
    spawned.stdin.on("error", () => undefined);
    return spawned;
  };

  return {
    dir,
    read(blobIds) {
      const wanted = [...new Set(blobIds)];
      for (const id of wanted) if (!OBJECT_ID.test(id)) return Promise.reject(new GitNameError("revision", "blob ids must be hexadecimal object ids"));
      if (wanted.length === 0) return Promise.resolve(new Map());
      if (failure) return Promise.reject(failure);
      if (closed) return Promise.reject(new Error("the blob reader is closed"));
      child ??= start();
      return new Promise((resolve, reject) => {
        requests.push({ remaining: wanted.length, result: new Map(), resolve, reject });
        child!.stdin.write(wanted.join("\n") + "\n");
      });
    },
    close() {
      if (closed) return;
      closed = true;
      if (requests.length > 0) fail(new Error("the blob reader was closed"));
      child?.stdin.end();
    },
  };
}
