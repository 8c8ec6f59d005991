import { functionsAt, nearCopy, newFile } from "./existing-helper/cases.ts";
const mirror = "/work/.mirror/expressjs+express/repo";
const at = process.argv[2]!;
const all = await functionsAt(mirror, at);
for (const f of all.filter((f) => ["res.location", "Layer", "res.clearCookie"].includes(f.name) || f.name.endsWith("location"))) {
  console.log(f.name, f.parent, f.kind, f.path, f.startLine);
  const c = nearCopy(f, 0);
  console.log(newFile(f, c.text, 0, "").content);
}
