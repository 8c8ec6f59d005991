// Piscina worker entry for Node (see src/indexing/chunking/worker-entry.mjs): registers tsx's loader in
// the worker thread when the host process has none, then loads worker.ts. Deno loads worker.ts directly.
const canImportTypeScript =
  typeof globalThis.Deno !== "undefined" || Boolean(process.features?.typescript);
if (!canImportTypeScript) {
  const { register } = await import("tsx/esm/api");
  register();
}
const worker = await import("./worker.ts");
export default worker.default;
