/**
 * Child process for the service-level crash test: the real composition (event store, projection
 * runner, key service) on a data dir, issuing API keys as fast as it can until it is killed.
 *
 *   tsx test/support/crash-service.ts <dataDir>
 *
 * Prints `READY`, then `ACK <keyId>` after each issue was acknowledged (appended durably and
 * projected). Several issues run concurrently so kills land between append and projection too.
 */
import { loadConfig } from "../../src/config.ts";
import { createLogger } from "../../src/logging.ts";
import { createLoupe } from "../../src/loupe.ts";

const dataDir = process.argv[2]!;
const config = loadConfig({ LOUPE_DATA_DIR: dataDir, LOUPE_API_KEY: "lp_crash_test_bootstrap_key_000000", LOUPE_LOG_LEVEL: "silent" });
const loupe = await createLoupe(config, { logger: createLogger("silent"), announce: () => {} });
const orgId = loupe.services.keys.organisations()[0]!.orgId;
process.stdout.write("READY\n");
let n = 0;
const worker = async () => {
  for (;;) {
    const i = n++;
    const context = { orgId, actor: "crash-test", correlationId: `c${i}`, causationId: null };
    const { info } = await loupe.services.keys.issue({ orgId, name: `key ${i}`, role: "member" }, context);
    process.stdout.write(`ACK ${info.keyId}\n`);
  }
};
await Promise.all([worker(), worker(), worker()]);
