import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config.ts";
import { spawnProcess, tsxBin } from "../support/process.ts";

describe("configuration", () => {
  it("applies the embedded defaults", () => {
    const config = loadConfig({});
    expect(config.port).toBe(8080);
    expect(config.dataDir).toBe("./data");
    expect(config.eventStoreUrl).toBeUndefined();
    expect(config.elasticsearchUrl).toBeUndefined();
    expect(config.bootstrapApiKey).toBeUndefined();
  });

  it("names every bad variable", () => {
    let error: unknown;
    try {
      loadConfig({ PORT: "eighty", LOUPE_EVENTSTORE_URL: "http://localhost:2113", LOUPE_API_KEY: "short" });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const variables = (error as ConfigError).problems.map((p) => p.variable).sort();
    expect(variables).toEqual(["LOUPE_API_KEY", "LOUPE_EVENTSTORE_URL", "PORT"]);
  });

  it("refuses a placeholder admin key (the old compose default) and resolves relative local roots against the working directory", () => {
    for (const key of ["change-me-to-a-long-random-key", "CHANGEME-0123456789abcdef", "example-key-0123456789"]) {
      expect(() => loadConfig({ LOUPE_API_KEY: key }), key).toThrow(/LOUPE_API_KEY: is a placeholder/);
    }
    expect(loadConfig({ LOUPE_LOCAL_ROOTS: "., /srv/repos" }).localRoots).toEqual([process.cwd(), "/srv/repos"]);
    expect(loadConfig({ LOUPE_LOG_FORMAT: "pretty" }).logFormat).toBe("pretty");
    expect(() => loadConfig({ LOUPE_LOG_FORMAT: "xml" })).toThrow(/LOUPE_LOG_FORMAT: must be json or pretty/);
  });

  it("selects EventStoreDB and Elasticsearch by URL", () => {
    const config = loadConfig({ LOUPE_EVENTSTORE_URL: "esdb://localhost:2113?tls=false", LOUPE_ELASTICSEARCH_URL: "http://localhost:9200/" });
    expect(config.eventStoreUrl).toBe("esdb://localhost:2113?tls=false");
    expect(config.elasticsearchUrl).toBe("http://localhost:9200");
  });

  it("stops start-up with exit code 2 and a message naming the variable", async () => {
    const proc = spawnProcess(tsxBin, ["src/main.ts"], { PORT: "not-a-port", LOUPE_DATA_DIR: "/tmp/loupe-never-created" });
    expect(await proc.exited).toBe(2);
    expect(proc.output()).toMatch(/PORT/);
  });
});
