/**
 * Runs the code index contract against a real Elasticsearch when LOUPE_TEST_ELASTICSEARCH_URL is set, e.g.
 *   docker run -p 9200:9200 -e discovery.type=single-node -e xpack.security.enabled=false \
 *     docker.elastic.co/elasticsearch/elasticsearch:9.1.0
 *   LOUPE_TEST_ELASTICSEARCH_URL=http://localhost:9200 npx vitest run test/searchindex
 * Skipped otherwise (no Elasticsearch can run on the CI machines).
 */
import { Client } from "@elastic/elasticsearch";
import { describe } from "vitest";
import { createElasticsearchCodeIndex } from "../../src/codeindex/elasticsearch.ts";
import { codeIndexContract, type CodeIndexFixture } from "../contract/codeindex.contract.ts";
import { codeGraphContract } from "../contract/codegraph.contract.ts";

const url = process.env.LOUPE_TEST_ELASTICSEARCH_URL;

describe.skipIf(!url)("Elasticsearch code index", () => {
  let run = 0;
  const fixture = async (): Promise<CodeIndexFixture> => {
    const indexPrefix = `loupe-test-${process.pid}-${Date.now()}-${run++}-`;
    const index = createElasticsearchCodeIndex({ node: url!, indexPrefix, refresh: true });
    return {
      index,
      async reopen() {
        await index.close();
        return createElasticsearchCodeIndex({ node: url!, indexPrefix, refresh: true });
      },
      async cleanup() {
        await index.close();
        const admin = new Client({ node: url! });
        await admin.indices.delete({ index: `${indexPrefix}*`, ignore_unavailable: true, allow_no_indices: true });
        await admin.close();
      },
    };
  };
  codeIndexContract("elasticsearch", fixture);
  codeGraphContract("elasticsearch", fixture);
});
