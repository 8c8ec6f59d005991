import { UsageError } from "../args.ts";
import type { Command } from "../command.ts";
import { out, table } from "../output.ts";

type KeyInfo = { keyId: string; name: string; role: string; createdAt: string; revokedAt: string | null; bootstrap?: boolean };

/** `loupe keys issue|list|revoke`: API keys of the caller's organisation (admin key needed). */
export const keysCommand: Command = {
  name: "keys",
  summary: "Manage API keys (needs an admin key). The secret of an issued key is shown once.",
  usage: ["keys issue <name> [--role member|admin]", "keys list [--all]", "keys revoke <keyId> [--reason <text>]"],
  flags: { string: ["role", "reason"], boolean: ["all"] },
  async run(args, ctx) {
    const [action, ...rest] = args.positionals;
    const client = ctx.client();
    if (action === "issue") {
      const name = rest.join(" ").trim();
      if (!name) throw new UsageError("keys issue needs a name");
      const role = args.strings.role ?? "member";
      if (role !== "member" && role !== "admin") throw new UsageError("--role must be member or admin");
      const issued = await client.json<KeyInfo & { key: string }>("POST", "/v2/keys", { name, role }, "issuing a key");
      if (ctx.json) out(JSON.stringify(issued, null, 2));
      else {
        out(`Issued ${issued.role} key ${issued.keyId} (${issued.name}).`);
        out(`Key (shown once, store it now): ${issued.key}`);
      }
      return 0;
    }
    if (action === "list") {
      if (rest.length) throw new UsageError(`unexpected argument ${rest[0]}`);
      const { keys } = await client.json<{ keys: KeyInfo[] }>("GET", "/v2/keys", undefined, "listing keys");
      const shown = args.booleans.all ? keys : keys.filter((k) => !k.revokedAt);
      if (ctx.json) out(JSON.stringify(shown, null, 2));
      else {
        out(table(["KEY ID", "ROLE", "CREATED", "REVOKED", "NAME"], shown.map((k) => [k.keyId, k.role, k.createdAt, k.revokedAt ?? "", k.name])));
        if (!args.booleans.all && shown.length < keys.length) out(`(${keys.length - shown.length} revoked key(s) hidden; --all shows them)`);
      }
      return 0;
    }
    if (action === "revoke") {
      const keyId = rest[0];
      if (!keyId || rest.length > 1) throw new UsageError("keys revoke needs exactly one key id");
      const body = args.strings.reason ? { reason: args.strings.reason } : undefined;
      const revoked = await client.json<KeyInfo>("DELETE", `/v2/keys/${encodeURIComponent(keyId)}`, body, "revoking the key");
      if (ctx.json) out(JSON.stringify(revoked, null, 2));
      else out(`Revoked key ${revoked.keyId} (${revoked.name}) at ${revoked.revokedAt}.`);
      return 0;
    }
    throw new UsageError(action ? `unknown keys action ${JSON.stringify(action)}` : "keys needs an action: issue, list or revoke");
  },
};
