/**
 * GitHub webhook signatures: `verifySha256Signature` (src/hosts/shared.ts) against
 * @octokit/webhooks-methods' `verify`, on GitHub's documented test vector and its tampered variants,
 * and on every example delivery of @octokit/webhooks-examples (signed here, as GitHub signs: HMAC-SHA256
 * of the raw body): agreement, and verifications per second.
 */
import { createHmac } from "node:crypto";
import { createRequire } from "node:module";
import { verify } from "@octokit/webhooks-methods";
import { verifySha256Signature } from "../../src/hosts/shared.ts";
import { median } from "./timing.ts";

const SECRET = "It's a Secret to Everybody";
const BODY = "Hello, World!";
const VECTOR = "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17";

type Outcome = boolean | string;
const library = async (secret: string, body: string | Uint8Array, signature: string | null): Promise<Outcome> => {
  try {
    return await verify(secret, body as string, signature as string);
  } catch (error) {
    return `throws: ${error instanceof Error ? error.message : String(error)}`;
  }
};

const sign = (secret: string, body: string | Uint8Array) => `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;

export async function benchWebhooks() {
  // A body that is not valid UTF-8 (a Latin-1 byte): signed as bytes by the sender.
  const latin1 = new Uint8Array([...new TextEncoder().encode('{"name":"caf'), 0xe9, ...new TextEncoder().encode('"}')]);
  const cases: [string, string, string | Uint8Array, string | null][] = [
    ["documented vector", SECRET, BODY, VECTOR],
    ["wrong secret", "other secret", BODY, VECTOR],
    ["tampered body", SECRET, "Hello, World?", VECTOR],
    ["tampered signature", SECRET, BODY, VECTOR.slice(0, -1) + "0"],
    ["signature without sha256= prefix", SECRET, BODY, VECTOR.slice(7)],
    ["upper-case hex", SECRET, BODY, VECTOR.toUpperCase().replace("SHA256=", "sha256=")],
    ["no signature header", SECRET, BODY, null],
    ["empty secret (signed with it)", "", BODY, sign("", BODY)],
    ["raw bytes, not valid UTF-8", SECRET, latin1, sign(SECRET, latin1)],
  ];
  const vector: Record<string, { own: Outcome; octokit: Outcome }> = {};
  for (const [name, secret, body, signature] of cases) {
    vector[name] = { own: verifySha256Signature(signature, body, secret), octokit: await library(secret, body, signature) };
  }

  const require = createRequire(import.meta.url);
  const definitions = require("@octokit/webhooks-examples") as { examples: unknown[] }[];
  const bodies = definitions.flatMap((d) => d.examples.map((e) => JSON.stringify(e)));
  const signatures = bodies.map((b) => sign(SECRET, b));
  let disagreements = 0;
  for (let i = 0; i < bodies.length; i++) {
    const tampered = bodies[i]!.replace(/"id":(\d)/, '"id":9$1');
    for (const body of [bodies[i]!, tampered]) if (verifySha256Signature(signatures[i]!, body, SECRET) !== (await verify(SECRET, body, signatures[i]!))) disagreements++;
  }
  const bytes = bodies.reduce((n, b) => n + b.length, 0);
  // The webhook route holds the raw body as bytes (it must: the signature is over the bytes). The own
  // check takes them as they are; octokit's takes a string, so its time includes the decoding.
  const raw = bodies.map((b) => new TextEncoder().encode(b));
  const decoder = new TextDecoder();
  const ownMs: number[] = [];
  const libMs: number[] = [];
  for (let round = 0; round < 9; round++) {
    let t = performance.now();
    for (let i = 0; i < raw.length; i++) verifySha256Signature(signatures[i]!, raw[i]!, SECRET);
    ownMs.push(performance.now() - t);
    t = performance.now();
    for (let i = 0; i < raw.length; i++) await verify(SECRET, decoder.decode(raw[i]!), signatures[i]!);
    libMs.push(performance.now() - t);
  }
  // For completeness: both given the body as a string (the own check then encodes it to bytes first).
  const ownStringMs: number[] = [];
  const libStringMs: number[] = [];
  for (let round = 0; round < 9; round++) {
    let t = performance.now();
    for (let i = 0; i < bodies.length; i++) verifySha256Signature(signatures[i]!, bodies[i]!, SECRET);
    ownStringMs.push(performance.now() - t);
    t = performance.now();
    for (let i = 0; i < bodies.length; i++) await verify(SECRET, bodies[i]!, signatures[i]!);
    libStringMs.push(performance.now() - t);
  }
  return {
    vector,
    deliveries: {
      input: `raw bodies (bytes): ${bodies.length} example deliveries of @octokit/webhooks-examples (${(bytes / 1e6).toFixed(1)} MB), each as signed and with one digit of an id changed`,
      disagreements,
      verifySha256SignaturePerSecond: Math.round(bodies.length / (median(ownMs) / 1000)),
      octokitVerifyPerSecond: Math.round(bodies.length / (median(libMs) / 1000)),
      fromStrings: {
        verifySha256SignaturePerSecond: Math.round(bodies.length / (median(ownStringMs) / 1000)),
        octokitVerifyPerSecond: Math.round(bodies.length / (median(libStringMs) / 1000)),
      },
    },
  };
}
