// Piscina worker entries on Node: Node 20 cannot import TypeScript, and worker threads started from a
// process that is not running under tsx (vitest, a compiled host) have no loader for it, so this
// registers tsx's ESM loader in the worker thread before importing the worker module. Deno imports
// TypeScript itself (its pools load worker.ts directly).
export async function importTypeScript(url) {
  const canImportTypeScript = typeof globalThis.Deno !== "undefined" || Boolean(process.features?.typescript);
  if (!canImportTypeScript) {
    const { register } = await import("tsx/esm/api");
    register();
  }
  return import(url);
}
