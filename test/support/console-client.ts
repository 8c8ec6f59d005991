/**
 * The web console over plain HTTP, as a browser would use it for one origin: a cookie jar over fetch,
 * and signing in through the sign-in form with its token.
 */

/** A cookie jar over fetch for `base`; `form` posts URL-encoded fields; redirects are not followed. */
export function consoleClient(base: string) {
  const jar = new Map<string, string>();
  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const request = async (path: string, init: RequestInit & { form?: Record<string, string> } = {}) => {
    const headers = new Headers(init.headers);
    if (jar.size) headers.set("cookie", cookieHeader());
    let body = init.body;
    if (init.form) {
      headers.set("content-type", "application/x-www-form-urlencoded");
      body = new URLSearchParams(init.form).toString();
    }
    const res = await fetch(base + path, { ...init, headers, body, redirect: "manual" });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const [name, ...rest] = pair!.split("=");
      const value = rest.join("=");
      if (value === "" || /max-age=0/i.test(line)) jar.delete(name!.trim());
      else jar.set(name!.trim(), value);
    }
    return res;
  };
  return { request, jar };
}

/** Signs in with `key` through the sign-in form; the client carries the session and its CSRF token. */
export async function signedInConsole(base: string, key: string) {
  const c = consoleClient(base);
  const form = await (await c.request("/console/sign-in")).text();
  const token = /name="_csrf" value="([^"]+)"/.exec(form)?.[1] ?? "";
  const res = await c.request("/console/sign-in", { method: "POST", form: { _csrf: token, apiKey: key } });
  if (res.status !== 303) throw new Error(`console sign-in failed: HTTP ${res.status}`);
  const page = await (await c.request("/console/repositories")).text();
  return { ...c, csrf: /<meta name="csrf-token" content="([^"]+)"/.exec(page)![1]! };
}
