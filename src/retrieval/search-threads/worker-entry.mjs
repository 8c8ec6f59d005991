// Piscina worker entry for Node (see src/workers/load-typescript.mjs); Deno loads worker.ts directly.
import { importTypeScript } from "../../workers/load-typescript.mjs";

const worker = await importTypeScript(new URL("./worker.ts", import.meta.url).href);
export default worker.default;
