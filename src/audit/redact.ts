import type { Entry, Key } from "../readstore/port.ts";

/**
 * Secrets never leave the admin face or the audit tools: fields that name a secret or a key hash are
 * replaced by REDACTED wherever they appear (event data, read-model values), and read-model entries
 * whose key carries such a value (an index by hash) are dropped.
 */
export const REDACTED = "[redacted]";

const SECRET_FIELD =
  /^(.*(secret|password|passphrase|credentials?|privatekey|keyhash|apikey|accesstoken|refreshtoken|authtoken)|token)$/i;
const SECRET_KEY_ELEMENT = /^by(key)?hash$/i;

export const isSecretField = (name: string) => SECRET_FIELD.test(name.replace(/[_-]/g, ""));

/** A deep copy of `value` with secret fields replaced; `found` collects the string values removed. */
export function redact<T>(value: T, found?: Set<string>): T {
  if (Array.isArray(value)) return value.map((v) => redact(v, found)) as T;
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (isSecretField(k) && v !== null && v !== undefined) {
        if (typeof v === "string") found?.add(v);
        out[k] = REDACTED;
      } else out[k] = redact(v, found);
    }
    return out as T;
  }
  return value;
}

/** A read-model key as an array (lmdb returns a one-element key as its bare element). */
export const keyArray = (key: Key | string | number): Key => (Array.isArray(key) ? key : [key]);

/**
 * Read-model entries made safe to show: values redacted, entries keyed by a secret (or by a value
 * that was redacted elsewhere in the model, such as `["byHash", <hash>]`) dropped.
 */
export function redactEntries(entries: Entry<unknown>[]): Entry<unknown>[] {
  const secrets = new Set<string>();
  const redacted = entries.map((e) => ({ key: keyArray(e.key), value: redact(e.value, secrets) }));
  const secretKey = (key: Key) =>
    key.some((el) => typeof el === "string" && (SECRET_KEY_ELEMENT.test(el) || secrets.has(el)));
  return redacted.filter((e) => !secretKey(e.key));
}

/** Whether a read-model entry belongs to `orgId` (its key or value names the organisation). */
export function entryBelongsTo(entry: Entry<unknown>, orgId: string): boolean {
  if (keyArray(entry.key).includes(orgId)) return true;
  const v = entry.value;
  if (Array.isArray(v)) return v.includes(orgId);
  return !!v && typeof v === "object" && (v as { orgId?: unknown }).orgId === orgId;
}
