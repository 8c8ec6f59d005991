import { describe, expect, it } from "vitest";
import { withIndexedRepository } from "./support.ts";

/**
 * "Where is parse_config called?" asks for the code that calls it, not for its definition; "where is it
 * defined?" still gets the definition first.
 */
const CONFIG = [
  '"""Reading the service configuration."""',
  "",
  "",
  "def parse_config(text):",
  '    """Parses the configuration text into a dict of settings."""',
  "    settings = {}",
  "    for line in text.splitlines():",
  "        key, _, value = line.partition('=')",
  "        settings[key.strip()] = value.strip()",
  "    return settings",
  "",
].join("\n");

const SERVER = [
  "from app.config import parse_config",
  "",
  "",
  "def start_server(path):",
  "    with open(path) as f:",
  "        settings = parse_config(f.read())",
  "    port = int(settings.get('port', 8080))",
  "    return serve(port)",
  "",
].join("\n");

const RELOAD = [
  "from app.config import parse_config",
  "",
  "",
  "def reload_settings(service, text):",
  "    fresh = parse_config(text)",
  "    service.settings.update(fresh)",
  "    service.log('settings reloaded')",
  "    return service",
  "",
].join("\n");

describe("a question about where a name is used gets its uses first (e2e)", () => {
  const { search } = withIndexedRepository("acme/service", {
    "app/config.py": CONFIG,
    "app/server.py": SERVER,
    "app/reload.py": RELOAD,
    "app/other.py": "def other():\n    return 1\n",
  });

  it("'where is parse_config called?' puts the two callers before the definition", async () => {
    const sources = await search("Where is parse_config called?");
    const files = [...new Set(sources.map((s) => s.filepath))];
    expect(files.slice(0, 2).sort()).toEqual(["app/reload.py", "app/server.py"]);
    expect(files.indexOf("app/config.py")).toBeGreaterThan(1);
  });

  it("'where is parse_config defined?' keeps the definition first", async () => {
    const sources = await search("Where is parse_config defined?");
    expect(sources[0]!.filepath).toBe("app/config.py");
  });
});
