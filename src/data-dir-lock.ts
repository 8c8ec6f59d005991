/**
 * One process at a time on a data directory: the server, and the maintenance scripts (replay, the code
 * index rebuild, audit) that open the same stores, each take this lock first. A script started while a
 * server runs is refused with a message naming the holder and what to do instead (the running
 * server's admin API), so it can never rewrite the read models or the code index under a live server.
 *
 * The lock is a Unix socket, `<dataDir>/loupe.lock`, listened on by the holder: the kernel ends it with
 * the process, so a crashed holder (kill -9, a container stopped hard) leaves no lock behind, whatever
 * its pid or host name was. Taking it: listen; if the path is in use, connect: an answer means a live
 * holder (it answers with who it is), a refused connection means a stale socket file, which is
 * removed under a short take-over guard (`loupe.lock.takeover`, created exclusively) so two starters
 * cannot both take it. Containers that share the volume on one host see each other's lock.
 *
 * The socket file can be deleted by hand (the usual reaction to a lock thought stale), which would let
 * a second process listen anew. So the taker then also asks the stores themselves: every process that
 * has one of the data directory's lmdb environments open holds a reader slot in its lock table, which
 * lmdb checks for liveness with an fcntl lock the kernel drops when the process ends (`readerCheck`
 * clears dead ones). A live process other than this one in that table holds the directory, lock file
 * or not, and the taker is refused. The same native lmdb runs on Node and Deno.
 */
import { createConnection, createServer, type Server } from "node:net";
import { accessSync, closeSync, constants, existsSync, mkdirSync, openSync, readdirSync, rmSync, statSync, unlinkSync } from "node:fs";
import { open } from "lmdb";
import { hostname } from "node:os";
import { dirname, join, resolve } from "node:path";

export type LockHolder = {
  /** What holds it: `server` or a script's name. */
  role: string;
  pid: number;
  host: string;
  since: string;
  /** The server's address, when the holder is a server that listens. */
  url?: string | undefined;
};

export type DataDirLock = {
  readonly path: string;
  /** Tells later callers of `describe()` the holder's URL (the server knows it once it listens). */
  setUrl(url: string): void;
  release(): Promise<void>;
};

/** The data directory is held by another live process. */
export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder | null,
    /** Processes found with the stores open while nobody answered on the lock (its file was deleted). */
    readonly openers: number[] = [],
  ) {
    const who = holder
      ? `${holder.role === "server" ? "a Loupe server" : `\`${holder.role}\``} (pid ${holder.pid} on ${holder.host}, since ${holder.since}${holder.url ? `, ${holder.url}` : ""})`
      : openers.length > 0
        ? `another process (pid ${openers.join(", ")}), which has its stores open although its lock file ${LOCK_FILE} is gone (deleted by hand?)`
        : "another process";
    super(`The data directory ${dataDir} is in use by ${who}.`);
    this.name = "DataDirLockedError";
  }
}

/**
 * The data directory (or something in it the stores must write) is not writable: a read-only mount, or
 * files owned by another user. Raised before anything is opened, naming the first such path.
 */
export class DataDirNotWritableError extends Error {
  constructor(
    readonly dataDir: string,
    readonly path: string,
    readonly errno: string,
  ) {
    const why = errno === "EROFS" ? "it is on a read-only file system" : errno === "ENOENT" ? "it does not exist and cannot be created" : `permission denied for uid ${process.getuid?.() ?? "?"}`;
    const fix = errno === "EROFS"
      ? "mount it read-write, or set LOUPE_DATA_DIR to a writable directory"
      : `make the data directory and everything in it writable by the user Loupe runs as (chown -R <that user> ${dataDir}), or set LOUPE_DATA_DIR to a writable directory`;
    super(`Loupe cannot write to ${path} (${why}): ${fix}.`);
    this.name = "DataDirNotWritableError";
  }
}

/** The data directory's own entries the stores and the mirrors write into (directories, and the lmdb files in them). */
const WRITTEN_DIRS = ["events", "readmodels", "codeindex", "mirrors"];

/**
 * Throws DataDirNotWritableError naming the first path of the data directory that cannot be written
 * (the directory itself, the stores' directories and their files, the mirrors' directory).
 */
function assertDataDirWritable(dataDir: string): void {
  const dir = resolve(dataDir);
  const check = (path: string) => {
    try {
      accessSync(path, constants.W_OK);
    } catch (error) {
      const code = errorCode(error) ?? "EACCES";
      if (code !== "ENOENT") throw new DataDirNotWritableError(dir, path, code);
    }
  };
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    // Name the directory it could not be created in (recursive mkdir may report only ENOENT).
    let parent = dirname(dir);
    while (!existsSync(parent) && dirname(parent) !== parent) parent = dirname(parent);
    check(parent);
    throw new DataDirNotWritableError(dir, dir, errorCode(error) ?? "EACCES");
  }
  check(dir);
  for (const name of WRITTEN_DIRS) {
    const sub = join(dir, name);
    if (!existsSync(sub)) continue;
    check(sub);
    if (name === "mirrors") continue; // git writes below; a mirror's own files are git's to report
    for (const file of readdirSync(sub)) check(join(sub, file));
  }
}

const LOCK_FILE = "loupe.lock";
/** The lmdb environments of a data directory (the event store, the read models, the code index). */
const STORE_FILES = ["events/events.lmdb", "readmodels/readmodels.lmdb", "codeindex/code-index.mdb"];

/** Other live processes with one of the data directory's lmdb environments open (their reader slots). */
async function otherOpeners(dir: string): Promise<number[]> {
  const pids = new Set<number>();
  for (const file of STORE_FILES) {
    const path = join(dir, file);
    if (!existsSync(path)) continue;
    const env = open({ path, readOnly: true });
    try {
      env.readerCheck(); // drops the slots of processes that have ended
      for (const line of env.readerList().split("\n")) {
        const pid = Number(/^\s*(\d+)\s/.exec(line)?.[1]);
        if (pid > 0 && pid !== process.pid) pids.add(pid);
      }
    } finally {
      await env.close();
    }
  }
  return [...pids];
}

/** sun_path is 108 bytes on Linux (104 on macOS), with its terminating NUL. */
const MAX_SOCKET_PATH = 103;
const TAKEOVER_STALE_MS = 10_000;

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException | null)?.code;

function listen(server: Server, path: string): Promise<void> {
  return new Promise((resolveListen, reject) => {
    const onError = (error: Error) => {
      server.off("listening", onListening);
      reject(error);
    };
    const onListening = () => {
      server.off("error", onError);
      resolveListen();
    };
    server.once("error", onError);
    server.once("listening", onListening);
    server.listen(path);
  });
}

/** Connects to a lock socket: the holder's description, or null when nobody listens (a stale file). */
function probe(path: string): Promise<{ live: boolean; holder: LockHolder | null }> {
  return new Promise((resolveProbe) => {
    const socket = createConnection(path);
    let text = "";
    let connected = false;
    socket.setTimeout(5_000);
    socket.on("connect", () => (connected = true));
    socket.on("data", (chunk) => (text += String(chunk)));
    const done = () => {
      let holder: LockHolder | null = null;
      try {
        holder = text ? (JSON.parse(text) as LockHolder) : null;
      } catch {
        holder = null;
      }
      resolveProbe({ live: connected, holder });
    };
    socket.on("end", done);
    socket.on("timeout", () => {
      socket.destroy();
      done();
    });
    socket.on("error", (error) => {
      // Refused or gone: nobody listens. Anything else (EACCES, ...): assume someone does.
      resolveProbe({ live: !["ECONNREFUSED", "ENOENT", "ENOTSOCK"].includes(errorCode(error) ?? "") || connected, holder: null });
    });
  });
}

/** Removes a stale lock file, guarded so that only one of several starters does it. */
function withTakeoverGuard<T>(dataDir: string, fn: () => Promise<T>): Promise<T> {
  const guard = join(dataDir, `${LOCK_FILE}.takeover`);
  let fd: number;
  try {
    fd = openSync(guard, "wx");
  } catch (error) {
    if (errorCode(error) !== "EEXIST") throw error;
    // A guard left by a starter that died while taking over: old enough to be nobody's.
    const age = Date.now() - statSync(guard, { throwIfNoEntry: false })!.mtimeMs;
    if (!(age > TAKEOVER_STALE_MS)) throw new DataDirLockedError(dataDir, null);
    rmSync(guard, { force: true });
    fd = openSync(guard, "wx");
  }
  closeSync(fd);
  return fn().finally(() => rmSync(guard, { force: true }));
}

/**
 * Takes the data directory's lock for `role` or throws DataDirLockedError naming the live holder. The
 * lock's socket does not keep the process alive; `release()` (or the process's end) frees it.
 */
export async function lockDataDir(dataDir: string, role: string): Promise<DataDirLock> {
  const dir = resolve(dataDir);
  assertDataDirWritable(dir);
  const path = join(dir, LOCK_FILE);
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH) {
    throw new Error(`The data directory path is too long for its lock (${path} is over ${MAX_SOCKET_PATH} bytes): use a shorter LOUPE_DATA_DIR`);
  }
  const me: LockHolder = { role, pid: process.pid, host: hostname(), since: new Date().toISOString() };
  const server = createServer((socket) => {
    socket.on("error", () => {});
    socket.end(JSON.stringify(me));
  });
  server.on("error", () => {});

  const attempt = async (): Promise<void> => {
    try {
      await listen(server, path);
    } catch (error) {
      if (errorCode(error) !== "EADDRINUSE") throw error;
      const found = await probe(path);
      if (found.live) throw new DataDirLockedError(dir, found.holder);
      await withTakeoverGuard(dir, async () => {
        if ((await probe(path)).live) throw new DataDirLockedError(dir, null);
        try {
          unlinkSync(path);
        } catch (unlinkError) {
          if (errorCode(unlinkError) !== "ENOENT") throw unlinkError;
        }
        await listen(server, path);
      });
    }
  };
  await attempt();
  server.unref();
  // The lock file may have been deleted under a live holder: ask its stores too (see the header).
  const openers = await otherOpeners(dir).catch((error: unknown) => {
    server.close();
    throw error;
  });
  if (openers.length > 0) {
    await new Promise<void>((resolveClose) => server.close(() => resolveClose()));
    throw new DataDirLockedError(dir, null, openers);
  }

  let released = false;
  return {
    path,
    setUrl(url) {
      me.url = url;
    },
    async release() {
      if (released) return;
      released = true;
      await new Promise<void>((resolveClose) => server.close(() => resolveClose()));
      rmSync(path, { force: true });
    },
  };
}

/** What an operator should do when a script finds the data directory held (printed under the error). */
export function lockAdvice(error: DataDirLockedError, instead: string): string {
  const url = error.holder?.url;
  return [
    error.message,
    `Stop that process first${error.holder?.role === "server" ? " (SIGTERM; it finishes its requests and exits)" : ""}, or ${instead}${url ? ` at ${url}/graphql` : ""}.`,
    "Nothing was changed.",
  ].join("\n");
}
