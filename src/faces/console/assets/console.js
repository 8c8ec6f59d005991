// Loupe console: the live parts of the server-rendered pages. No framework, no inline script (the
// Content-Security-Policy forbids it); text from the server is set with textContent, except the
// answer's markdown, which the server renders safely (raw HTML off, safe links only).
"use strict";

const csrf = () => document.querySelector('meta[name="csrf-token"]')?.getAttribute("content") ?? "";
const el = (tag, text, className) => {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (className) node.className = className;
  return node;
};
const badgeClass = (value) => `badge badge-${String(value).toLowerCase().replace(/[^a-z_-]/g, "")}`;
const shortTime = (at) => (at ? String(at).replace("T", " ").replace(/\.\d+Z$/, "Z") : "-");

function setBadge(node, value) {
  if (!node) return;
  node.textContent = value;
  node.className = badgeClass(value);
}

function setProgress(root, value, max) {
  const bar = root.querySelector('[data-field="progress"]');
  const text = root.querySelector('[data-field="progress-text"]');
  if (bar) {
    bar.max = Math.max(max, 1);
    bar.value = Math.min(value, Math.max(max, 1));
  }
  if (text) text.textContent = `${value} / ${max}`;
}

function setField(root, name, text) {
  const node = root.querySelector(`[data-field="${name}"]`);
  if (node) node.textContent = text;
  return node;
}

function updateRepositories(list) {
  for (const r of list) {
    const row = document.querySelector(`tr[data-repo-id="${CSS.escape(r.id)}"]`);
    if (!row) continue;
    setBadge(row.querySelector('[data-field="status"]'), r.status);
    setProgress(row, r.filesProcessed, r.numFiles);
    setField(row, "languages", r.languages || "-");
    setField(row, "sha", (r.sha ?? r.headSha ?? "-").slice(0, 12));
    setField(row, "indexedAt", shortTime(r.indexedAt));
    const failure = setField(row, "failureReason", r.failureReason ?? "");
    if (failure) failure.hidden = !r.failureReason;
  }
}

function updateReviews(list) {
  for (const r of list) {
    const box = document.querySelector(`[data-review-id="${CSS.escape(r.id)}"]`);
    if (!box) continue;
    setBadge(box.querySelector('[data-field="status"]'), r.status);
    setProgress(box, r.completedFiles, r.totalFiles);
    const reason = setField(box, "reason", r.reason ?? "");
    if (reason) reason.hidden = !r.reason;
    const timeline = box.querySelector('[data-field="timeline"]');
    if (timeline) {
      timeline.replaceChildren(
        ...r.history.map((h) => {
          const li = el("li");
          li.append(el("span", h.status, badgeClass(h.status)), " ", el("time", shortTime(h.at)));
          return li;
        }),
      );
    }
  }
}

function startLive() {
  for (const node of document.querySelectorAll("[data-live]")) {
    const source = new EventSource(node.getAttribute("data-live"));
    source.addEventListener("repositories", (e) => updateRepositories(JSON.parse(e.data)));
    source.addEventListener("reviews", (e) => updateReviews(JSON.parse(e.data)));
    source.addEventListener("idle", () => {
      source.close();
      node.setAttribute("data-live-state", "idle");
    });
  }
}

// ---- Search and ask. The typed question is kept in sessionStorage from sending until the server has
// it (a page showing it, or an answer streaming), so a session that ended meanwhile loses nothing.

const DRAFT = "loupe.search.draft";
const link = (text, href, className) => Object.assign(el("a", text, className), { href });

/** sessionStorage, or nothing when the browser has it off (the question then stays only in the form). */
function draftStore(action) {
  try {
    return action(sessionStorage);
  } catch {
    return null;
  }
}

function saveDraft(form) {
  const data = new FormData(form);
  const draft = { query: data.get("query") ?? "", repos: data.getAll("repo"), sessionId: data.get("sessionId") ?? "" };
  draftStore((s) => s.setItem(DRAFT, JSON.stringify(draft)));
}

const dropDraft = () => draftStore((s) => s.removeItem(DRAFT));

/** Puts an unsent question back into the search form (unless the page shows it already); true when it did. */
function restoreDraft(form) {
  const draft = draftStore((s) => JSON.parse(s.getItem(DRAFT) ?? "null"));
  const query = form.elements.namedItem("query");
  if (typeof draft?.query !== "string" || !draft.query.trim() || draft.query.trim() === query.value.trim()) return false;
  query.value = draft.query;
  const repos = new Set(Array.isArray(draft.repos) ? draft.repos : []);
  if (repos.size > 0) for (const box of form.querySelectorAll('input[name="repo"]')) box.checked = repos.has(box.value);
  const session = form.elements.namedItem("sessionId");
  if (session && !session.value && typeof draft.sessionId === "string") session.value = draft.sessionId;
  return true;
}

/** Says the session ended, with a link to sign in that comes back to the search page (where the kept question is put back). */
function sessionEnded(node, form) {
  const sessionId = form.elements.namedItem("sessionId")?.value ?? "";
  const back = `/console/search${sessionId ? `?${new URLSearchParams({ sessionId })}` : ""}`;
  const signIn = link("Sign in again", `/console/sign-in?${new URLSearchParams({ next: back })}`);
  node.replaceChildren("Your session has ended (signed out, or the server restarted). ", signIn, ": your question is kept in this form and comes back after you sign in.");
}

function setBusy(form, busy) {
  form.toggleAttribute("data-busy", busy);
  for (const button of form.querySelectorAll('button[type="submit"]')) button.disabled = busy;
}

/** Lists the session on the page's "Past sessions" (the page was rendered before it existed). */
function listSession(sessionId) {
  const list = document.getElementById("past-sessions");
  if (!list || [...list.querySelectorAll("a")].some((a) => a.textContent === sessionId)) return;
  const li = el("li");
  li.append(link(sessionId, `/console/sessions/${encodeURIComponent(sessionId)}`, "mono"), " ", el("span", "just now", "muted small"));
  list.prepend(li);
}

async function ask(form) {
  const box = document.getElementById("answer");
  const status = document.getElementById("answer-status");
  const text = document.getElementById("answer-text");
  const sources = document.getElementById("answer-sources");
  const sessionLine = document.getElementById("answer-session");
  box.hidden = false;
  box.setAttribute("aria-busy", "true");
  text.textContent = "";
  text.classList.add("answer-text");
  sources.replaceChildren();
  sessionLine.replaceChildren();
  status.textContent = "Asking...";
  status.className = "muted small";
  let sessionId = "";
  saveDraft(form);
  const response = await fetch("/console/ask", {
    method: "POST",
    headers: { accept: "application/x-ndjson", "x-csrf-token": csrf() },
    body: new URLSearchParams(new FormData(form)),
    credentials: "same-origin",
  });
  if (!response.ok) status.className = "errors";
  if (response.status === 401 || response.status === 403) {
    // Not signed in any more, or signed in again elsewhere (this page's CSRF token is stale): the draft stays.
    if (response.status === 401) sessionEnded(status, form);
    else status.replaceChildren("This page is out of date (signed in again in another tab?). ", link("Reload the page", location.href), ": your question is kept.");
    box.setAttribute("aria-busy", "false");
    return;
  }
  dropDraft(); // the server answered: the question stays in this form
  if (!response.ok || !response.body) {
    const body = await response.json().catch(() => null);
    status.textContent = body?.error?.message ?? `The question failed (${response.status})`;
    box.setAttribute("aria-busy", "false");
    return;
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  const handle = (line) => {
    if (!line.trim()) return;
    const item = JSON.parse(line);
    if (item.type === "session") sessionId = item.message;
    else if (item.type === "status") status.textContent = item.message;
    else if (item.type === "message") text.textContent += item.message;
    else if (item.type === "sources") {
      sources.replaceChildren(
        ...item.message.map((s) => {
          const li = el("li");
          const a = el("a", `${s.filepath} ${s.linestart ? `L${s.linestart}-${s.lineend ?? s.linestart}` : ""}`.trim(), "mono");
          a.href = `/console/code?${new URLSearchParams({ remote: s.remote, repository: s.repository, branch: s.branch, path: s.filepath, start: String(s.linestart ?? 1), end: String(s.lineend ?? s.linestart ?? 1) })}`;
          li.append(a, " ", el("span", s.repository, "muted small"));
          return li;
        }),
      );
    }
  };
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffered += decoder.decode(value, { stream: true });
    const lines = buffered.split("\n");
    buffered = lines.pop() ?? "";
    lines.forEach(handle);
  }
  handle(buffered);
  if (sessionId) {
    const href = `/console/sessions/${encodeURIComponent(sessionId)}`;
    // The answer again as the server renders markdown (raw HTML off, safe links only).
    const rendered = await fetch(`${href}/answer`, { credentials: "same-origin" });
    if (rendered.ok) {
      const template = document.createElement("template");
      template.innerHTML = await rendered.text();
      text.replaceChildren(template.content);
      text.classList.remove("answer-text");
    }
    sessionLine.append(link(`Session ${sessionId}`, href, "mono"));
    const field = form.querySelector('input[name="sessionId"]');
    if (field) field.value = sessionId;
    listSession(sessionId);
    // The answered question lives at its session's page: Back and Reload show it from there.
    if (location.pathname === href) history.replaceState({ loupeAnswer: sessionId }, "", href);
    else {
      history.pushState({ loupeAnswer: sessionId }, "", href);
      // Back and Forward between this page's entries: show what their URL names.
      window.addEventListener("popstate", () => location.reload(), { once: true });
    }
  }
  status.textContent = "Done";
  box.setAttribute("aria-busy", "false");
}

function startSearchForm() {
  const form = document.getElementById("search-form");
  if (!form) return;
  // A page showing the question has it from the server; another one gets it back.
  if (restoreDraft(form)) {
    const note = document.getElementById("form-status");
    note.textContent = "Your unsent question is back in the form.";
    note.hidden = false;
  }
  dropDraft();
  form.addEventListener("submit", () => saveDraft(form));
  const button = document.getElementById("ask-button");
  if (!button || !window.fetch || !window.ReadableStream) return;
  button.addEventListener("click", (event) => {
    event.preventDefault();
    if (form.hasAttribute("data-busy") || !form.reportValidity()) return;
    setBusy(form, true);
    ask(form)
      .catch((error) => {
        const status = document.getElementById("answer-status");
        status.className = "errors";
        status.textContent = `The question failed: ${error.message}`;
      })
      .finally(() => setBusy(form, false));
  });
}

// ---- Scope editor: rows of conditions under AND / OR, kept in the JSON textarea, checked before sending.

const OPERATORS = ["MATCHES", "NOT_MATCHES", "EQUALS", "NOT_EQUALS"];
const FIELDS = ["filepath", "repository"];
const MAX_DEPTH = 8;
const MAX_CONDITIONS = 200;
const MAX_GLOB_LENGTH = 1000;

function balanced(glob) {
  let braces = 0;
  let inClass = false;
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i];
    if (ch === "\\") {
      i++;
      continue;
    }
    if (inClass) {
      if (ch === "]") inClass = false;
      continue;
    }
    if (ch === "[") inClass = true;
    else if (ch === "{") braces++;
    else if (ch === "}" && --braces < 0) return false;
  }
  return braces === 0 && !inClass;
}

/** Why `node` is not a valid scope (null when it is): the rules of custom context scopes. */
function scopeProblem(node, path = "scopes", depth = 0, count = { n: 0 }) {
  if (depth > MAX_DEPTH) return `${path}: nested deeper than ${MAX_DEPTH}`;
  if (!node || typeof node !== "object" || Array.isArray(node)) return `${path}: must be an object`;
  const keys = Object.keys(node);
  if ("field" in node || "operator" in node || "value" in node) {
    const extra = keys.filter((k) => !["field", "operator", "value"].includes(k));
    if (extra.length) return `${path}: unexpected ${extra.join(", ")}`;
    if (typeof node.field !== "string" || !node.field.trim()) return `${path}.field: must be a non-empty string`;
    if (!OPERATORS.includes(node.operator)) return `${path}.operator: must be one of ${OPERATORS.join(", ")}`;
    if (typeof node.value !== "string") return `${path}.value: must be a string`;
    if (node.operator.endsWith("MATCHES")) {
      if (!node.value) return `${path}.value: an empty glob matches nothing`;
      if (node.value.length > MAX_GLOB_LENGTH) return `${path}.value: longer than ${MAX_GLOB_LENGTH} characters`;
      if (!balanced(node.value)) return `${path}.value: unbalanced braces or brackets`;
    }
    if (++count.n > MAX_CONDITIONS) return `scopes: more than ${MAX_CONDITIONS} conditions`;
    return null;
  }
  const extra = keys.filter((k) => k !== "AND" && k !== "OR");
  if (extra.length) return `${path}: only AND, OR or a condition {field, operator, value} (found ${extra.join(", ")})`;
  for (const op of ["AND", "OR"]) {
    if (!(op in node)) continue;
    if (!Array.isArray(node[op])) return `${path}.${op}: must be an array`;
    for (let i = 0; i < node[op].length; i++) {
      const problem = scopeProblem(node[op][i], `${path}.${op}.${i}`, depth + 1, count);
      if (problem) return problem;
    }
  }
  return null;
}

function select(options, value, label) {
  const s = el("select");
  s.setAttribute("aria-label", label);
  for (const o of options) {
    const opt = el("option", o.label ?? o);
    opt.value = o.value ?? o;
    s.append(opt);
  }
  s.value = value;
  return s;
}

function startScopeEditor(root) {
  const textarea = root.querySelector("textarea");
  const error = root.querySelector(".scope-error");
  const form = root.closest("form");
  let parsed;
  try {
    parsed = JSON.parse(textarea.value || "{}");
  } catch {
    parsed = null;
  }
  // Rows edit the common shapes: {} or one AND / OR of plain conditions; anything else stays JSON.
  const simple = parsed && typeof parsed === "object" && !Array.isArray(parsed) &&
    (Object.keys(parsed).length === 0 ||
      (Object.keys(parsed).length === 1 && ["AND", "OR"].some((k) => Array.isArray(parsed[k]) && parsed[k].every((c) => c && typeof c === "object" && "field" in c))));
  if (simple) {
    const combinator = Object.keys(parsed)[0] ?? "";
    const rows = el("div", null, "scope-rows");
    const mode = select([{ value: "", label: "Everywhere" }, { value: "AND", label: "All of (AND)" }, { value: "OR", label: "Any of (OR)" }], combinator, "Scope applies");
    const add = el("button", "Add condition", "secondary small");
    add.type = "button";
    const sync = () => {
      const conditions = [...rows.children].map((row) => {
        const [field, operator, value] = row.querySelectorAll("select, input");
        return { field: field.value, operator: operator.value, value: value.value };
      });
      rows.hidden = add.hidden = mode.value === "";
      textarea.value = JSON.stringify(mode.value === "" ? {} : { [mode.value]: conditions });
    };
    const addRow = (c = { field: "filepath", operator: "MATCHES", value: "" }) => {
      const row = el("div", null, "scope-row");
      const value = el("input");
      value.value = c.value;
      value.placeholder = "src/**/*.ts";
      value.setAttribute("aria-label", "Value (glob for MATCHES)");
      const remove = el("button", "Remove", "link small");
      remove.type = "button";
      remove.addEventListener("click", () => {
        row.remove();
        sync();
      });
      row.append(select(FIELDS, FIELDS.includes(c.field) ? c.field : "filepath", "Field"), select(OPERATORS, c.operator, "Operator"), value, remove);
      row.addEventListener("input", sync);
      row.addEventListener("change", sync);
      rows.append(row);
    };
    (parsed[combinator] ?? []).forEach(addRow);
    mode.addEventListener("change", () => {
      if (mode.value && rows.children.length === 0) addRow();
      sync();
    });
    add.addEventListener("click", () => {
      addRow();
      sync();
    });
    const builder = el("div", null, "scope-builder");
    builder.append(mode, rows, add, el("p", "Or edit the JSON below (nested AND / OR): the rows then step aside.", "scope-note"));
    root.insertBefore(builder, textarea);
    rows.hidden = add.hidden = combinator === "";
    // Typing JSON by hand switches to JSON only, so the rows never overwrite it.
    textarea.addEventListener("input", () => builder.remove(), { once: true });
  }
  form.addEventListener("submit", (event) => {
    let problem;
    try {
      problem = scopeProblem(JSON.parse(textarea.value.trim() || "{}"));
    } catch {
      problem = "scopes: not valid JSON";
    }
    error.textContent = problem ?? "";
    error.hidden = !problem;
    if (problem) {
      event.preventDefault();
      (root.querySelector(".scope-row input") ?? textarea).focus();
    }
  });
}

document.addEventListener("DOMContentLoaded", () => {
  startLive();
  startSearchForm();
  document.querySelectorAll("[data-scope-editor]").forEach(startScopeEditor);
});
