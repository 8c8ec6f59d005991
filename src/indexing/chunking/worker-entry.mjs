// Piscina worker entry for Node. Node 20 cannot import TypeScript, and worker threads started from
// a process that is not running under tsx (vitest, a compiled host) have no loader for it, so this
// registers tsx's ESM loader in the worker thread before importing worker.ts. Deno loads worker.ts
// directly (see pool.ts).
const canImportTypeScript =
  typeof globalThis.Deno !== "undefined" || Boolean(process.features?.typescript);
if (!canImportTypeScript) {
  const { register } = await import("tsx/esm/api");
  register();
}
const worker = await import("./worker.ts");
export default worker.default;
