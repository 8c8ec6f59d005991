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
  let sessionId = "";
  const response = await fetch("/console/ask", {
    method: "POST",
    headers: { accept: "application/x-ndjson", "x-csrf-token": csrf() },
    body: new URLSearchParams(new FormData(form)),
    credentials: "same-origin",
  });
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
    // The answer again as the server renders markdown (raw HTML off, safe links only).
    const rendered = await fetch(`/console/sessions/${encodeURIComponent(sessionId)}/answer`, { credentials: "same-origin" });
    if (rendered.ok) {
      const template = document.createElement("template");
      template.innerHTML = await rendered.text();
      text.replaceChildren(template.content);
      text.classList.remove("answer-text");
    }
    const a = el("a", `Session ${sessionId}`, "mono");
    a.href = `/console/sessions/${encodeURIComponent(sessionId)}`;
    sessionLine.append(a);
    const field = form.querySelector('input[name="sessionId"]');
    if (field) field.value = sessionId;
  }
  status.textContent = "Done";
  box.setAttribute("aria-busy", "false");
}

function startAsk() {
  const button = document.getElementById("ask-button");
  if (!button || !window.fetch || !window.ReadableStream) return;
  button.addEventListener("click", (event) => {
    const form = button.form;
    if (!form.reportValidity()) return;
    event.preventDefault();
    ask(form).catch((error) => {
      document.getElementById("answer-status").textContent = `The question failed: ${error.message}`;
    });
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
  startAsk();
  document.querySelectorAll("[data-scope-editor]").forEach(startScopeEditor);
});
