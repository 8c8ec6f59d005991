/** Changes to a function that keep its behaviour, as its parse shows them (src/review/graph/same-behaviour.ts). */
import { describe, expect, it } from "vitest";
import { sameBehaviour } from "../../src/review/graph/same-behaviour.ts";

const BEFORE = `    @property
    def session(self) -> SessionMixin:
        """The session object of this context."""
        if self._request is None:
            raise RuntimeError("There is no request in this context.")

        if self._session is None:
            si = self.app.session_interface
            self._session = si.open_session(self.app, self.request)

            if self._session is None:
                self._session = si.make_null_session(self.app)

        self._session.accessed = True
        return self._session`;

/** flask a411a24: the body moved into _get_session(), the property calls it. */
const HELPER = `    def _get_session(self) -> SessionMixin:
        """Open the session if it is not already open for this request context."""
        if self._request is None:
            raise RuntimeError("There is no request in this context.")

        if self._session is None:
            si = self.app.session_interface
            self._session = si.open_session(self.app, self.request)

            if self._session is None:
                self._session = si.make_null_session(self.app)

        return self._session`;

const AFTER = `    @property
    def session(self) -> SessionMixin:
        """The session object of this context."""
        session = self._get_session()
        session.accessed = True
        return session`;

describe("same behaviour", () => {
  it("an extracted helper called in place of the same statements (flask AppContext.session)", () => {
    expect(sameBehaviour(BEFORE, AFTER, "src/flask/ctx.py", [{ name: "_get_session", text: HELPER }])).toBe(true);
    // Without the helper's text nothing can be shown.
    expect(sameBehaviour(BEFORE, AFTER, "src/flask/ctx.py", [])).toBe(false);
    // The helper leaves out a statement, or the caller adds one: a change.
    expect(sameBehaviour(BEFORE, AFTER, "src/flask/ctx.py", [{ name: "_get_session", text: HELPER.replace(/\n\n            if self._session is None:\n.*\n/, "\n") }])).toBe(false);
    expect(sameBehaviour(BEFORE, AFTER.replace("session.accessed = True", "session.accessed = True\n        session.modified = True"), "src/flask/ctx.py", [{ name: "_get_session", text: HELPER }])).toBe(false);
    // The statements run in another order: a change.
    const swapped = AFTER.replace("session = self._get_session()\n        session.accessed = True", "self.accessed = True\n        session = self._get_session()");
    expect(sameBehaviour(BEFORE, swapped, "src/flask/ctx.py", [{ name: "_get_session", text: HELPER }])).toBe(false);
  });

  it("an extracted helper with parameters, in JavaScript, called as a statement or returned", () => {
    const before = `function render(view, options) {
  const name = view.name;
  if (!name) throw new Error("no view");
  options.cache[name] = view;
  return view.render(options);
}`;
    const helper = `function remember(view, cache) {
  const name = view.name;
  if (!name) throw new Error("no view");
  cache[name] = view;
}`;
    const after = `function render(view, options) {
  remember(view, options.cache);
  return view.render(options);
}`;
    expect(sameBehaviour(before, after, "lib/view.js", [{ name: "remember", text: helper }])).toBe(true);
    expect(sameBehaviour(before, after.replace("remember(view, options.cache)", "remember(options, view.cache)"), "lib/view.js", [{ name: "remember", text: helper }])).toBe(false);
    const returning = `function total(items) {\n  return sumOf(items);\n}`;
    const sum = `function sumOf(list) {\n  let n = 0;\n  for (const x of list) n += x.price;\n  return n;\n}`;
    const inline = `function total(items) {\n  let n = 0;\n  for (const x of items) n += x.price;\n  return n;\n}`;
    expect(sameBehaviour(inline, returning, "lib/total.js", [{ name: "sumOf", text: sum }])).toBe(true);
  });

  it("a function the file already had, called in place of the same statements; and a helper inlined, read backwards", () => {
    const before = `function render(view, options) {\n  const name = view.name;\n  if (!name) throw new Error("no view");\n  options.cache[name] = view;\n  return view.render(options);\n}`;
    const helper = `function remember(view, cache) {\n  const name = view.name;\n  if (!name) throw new Error("no view");\n  cache[name] = view;\n}`;
    const after = `function render(view, options) {\n  remember(view, options.cache);\n  return view.render(options);\n}`;
    // remember() was in the file before the change: the new body calls it where the old one had its statements.
    expect(sameBehaviour(before, after, "lib/view.js", [], { after: [{ name: "remember", text: helper }] })).toBe(true);
    expect(sameBehaviour(before, after, "lib/view.js", [], { after: [{ name: "remember", text: helper.replace("cache[name] = view;", "cache[name] = null;") }] })).toBe(false);
    // A function the old body called too is no extracted helper (its call is compared as it is).
    expect(sameBehaviour(before.replace("return view", "remember(view, {});\n  return view"), after.replace("return view", "remember(view, {});\n  return view"), "lib/view.js", [], { after: [{ name: "remember", text: helper }] })).toBe(false);
    // Two functions of that name (which one a call reaches cannot be told): nothing shown.
    expect(sameBehaviour(before, after, "lib/view.js", [], { after: [{ name: "remember", text: helper }, { name: "remember", text: helper }] })).toBe(false);
    // Inlined: the old body called remember(), the new one has its statements.
    expect(sameBehaviour(after, before, "lib/view.js", [], { before: [{ name: "remember", text: helper }] })).toBe(true);
    expect(sameBehaviour(after, before.replace("options.cache[name] = view;", "options.cache[name] = view;\n  options.count++;"), "lib/view.js", [], { before: [{ name: "remember", text: helper }] })).toBe(false);
  });

  it("a helper moved and renamed: the old body's call of the removed name is the new body's call of the added one (httpx 41597ad)", () => {
    const charset = (call: string) => `    @property\n    def charset_encoding(self) -> str | None:\n        content_type = self.headers.get("Content-Type")\n        if content_type is None:\n            return None\n\n        return ${call}(content_type)\n`;
    const renamed = new Map([["parse_content_type_charset", "_parse_content_type_charset"]]);
    expect(sameBehaviour(charset("parse_content_type_charset"), charset("_parse_content_type_charset"), "httpx/_models.py", [], { renamed })).toBe(true);
    expect(sameBehaviour(charset("parse_content_type_charset"), charset("_parse_content_type_charset"), "httpx/_models.py", [])).toBe(false);
    // Another function called, or the old name as an attribute (another object's method): a change.
    expect(sameBehaviour(charset("parse_content_type_charset"), charset("_parse_header"), "httpx/_models.py", [], { renamed })).toBe(false);
    expect(sameBehaviour(charset("utils.parse_content_type_charset"), charset("utils._parse_content_type_charset"), "httpx/_models.py", [], { renamed })).toBe(false);
  });

  it("a helper that only returns an expression, called inside expressions, on this or on another object (commons-lang e66ad3d)", () => {
    const isEmpty = (body: string) => `    boolean isEmpty() {\n        return ${body};\n    }`;
    const startMin = { name: "isStartMin", text: "    private boolean isStartMin() {\n        return start == Character.MIN_VALUE;\n    }" };
    const endMax = { name: "isEndMax", text: "    private boolean isEndMax() {\n        return end == Character.MAX_VALUE;\n    }" };
    const path = "src/main/java/org/apache/commons/lang3/CharRange.java";
    expect(sameBehaviour(isEmpty("negated && start == Character.MIN_VALUE && end == Character.MAX_VALUE"), isEmpty("negated && isStartMin() && isEndMax()"), path, [startMin, endMax])).toBe(true);
    // On another object: its members, named without `this` in Java, are that object's.
    const contains = (cond: string) => `    public boolean contains(final CharRange range) {\n        if (${cond}) {\n            return true;\n        }\n        return false;\n    }`;
    expect(sameBehaviour(contains("range.start == Character.MIN_VALUE"), contains("range.isStartMin()"), path, [startMin])).toBe(true);
    expect(sameBehaviour(contains("start == Character.MIN_VALUE"), contains("range.isStartMin()"), path, [startMin])).toBe(false);
    // Another comparison, or the helper negated where the old code was not: a change.
    expect(sameBehaviour(isEmpty("negated && start == Character.MIN_VALUE && end == Character.MAX_VALUE"), isEmpty("negated && isStartMin() && !isEndMax()"), path, [startMin, endMax])).toBe(false);
    expect(sameBehaviour(isEmpty("negated && start != Character.MIN_VALUE && end == Character.MAX_VALUE"), isEmpty("negated && isStartMin() && isEndMax()"), path, [startMin, endMax])).toBe(false);
    // A tighter operator next to the call keeps E in parentheses: `2 * half(n)` is not `2 * n / 2`... unless written so.
    const half = { name: "half", text: "function half(n) {\n  return n / 2 + 1;\n}" };
    const twice = (e: string) => `function size(n) {\n  return ${e};\n}`;
    expect(sameBehaviour(twice("2 * n / 2 + 1"), twice("2 * half(n)"), "lib/size.js", [half])).toBe(false);
    expect(sameBehaviour(twice("2 * (n / 2 + 1)"), twice("2 * half(n)"), "lib/size.js", [half])).toBe(true);
    // An argument with a call, used twice by the helper, would run twice: not put in place.
    const sq = { name: "sq", text: "function sq(x) {\n  return x * x;\n}" };
    const guard = (e: string) => `function size(n) {\n  if (${e}) return 1;\n  return 0;\n}`;
    expect(sameBehaviour(guard("next() * next()"), guard("sq(next())"), "lib/size.js", [sq])).toBe(false);
    expect(sameBehaviour(guard("n * n"), guard("sq(n)"), "lib/size.js", [sq])).toBe(true);
    // Read backwards: the old body called a helper of the file that the new one writes out.
    expect(sameBehaviour(isEmpty("negated && isStartMin() && isEndMax()"), isEmpty("negated && start == Character.MIN_VALUE && end == Character.MAX_VALUE"), path, [], { before: [startMin, endMax] })).toBe(true);
  });

  it("a check moved into a helper that answers whether to go on, called as `if (!h(...))` (commons-lang e8bafeb)", () => {
    const parse = (check: string) => `    public Date parse(final String source, final ParsePosition pos) {\n${check}        final Calendar cal = Calendar.getInstance(timeZone, locale);\n        return parse(source, pos, cal) ? cal.getTime() : null;\n    }\n`;
    const inline = "        final int startIndex = pos.getIndex();\n        if (startIndex > source.length()) {\n            pos.setErrorIndex(startIndex);\n            return null;\n        }\n";
    const called = "        if (!checkLength(source, pos)) {\n            return null;\n        }\n";
    const helper = (stop = "return false;", go = "return true;") => ({ name: "checkLength", text: `    private boolean checkLength(final String source, final ParsePosition pos) {\n        final int startIndex = pos.getIndex();\n        if (startIndex > source.length()) {\n            pos.setErrorIndex(startIndex);\n            ${stop}\n        }\n        ${go}\n    }` });
    const path = "src/main/java/org/apache/commons/lang3/time/FastDateParser.java";
    expect(sameBehaviour(parse(inline), parse(called), path, [helper()])).toBe(true);
    // Not negated, the same helper goes on where the old code stopped; a helper that stops with true is called without `!`.
    expect(sameBehaviour(parse(inline), parse(called.replace("!checkLength", "checkLength")), path, [helper()])).toBe(false);
    expect(sameBehaviour(parse(inline), parse(called.replace("!checkLength", "checkLength")), path, [helper("return true;", "return false;")])).toBe(true);
    // The helper checks something else, or the caller's block does: a change.
    expect(sameBehaviour(parse(inline), parse(called), path, [{ ...helper(), text: helper().text.replace(">", ">=") }])).toBe(false);
    expect(sameBehaviour(parse(inline), parse(called.replace("return null;", "return new Date(0);")), path, [helper()])).toBe(false);
    // Python: `if not h(...):`.
    const py = (check: string) => `def parse(source, pos):\n${check}    return _parse(source, pos)\n`;
    const pyHelper = { name: "_fits", text: "def _fits(source, pos):\n    start = pos.index\n    if start > len(source):\n        pos.error = start\n        return False\n    return True\n" };
    expect(sameBehaviour(py("    start = pos.index\n    if start > len(source):\n        pos.error = start\n        return None\n"), py("    if not _fits(source, pos):\n        return None\n"), "src/dates.py", [pyHelper])).toBe(true);
  });

  it("the object a Java synchronized block locks is no behaviour; the block's statements are (commons-lang d743715)", () => {
    const contains = (lock: string, body = "return set.contains(ch);") => `    public boolean contains(final char ch) {\n        synchronized (${lock}) {\n            ${body}\n        }\n    }`;
    const path = "src/main/java/org/apache/commons/lang3/CharSet.java";
    expect(sameBehaviour(contains("set"), contains("lock"), path, [])).toBe(true);
    expect(sameBehaviour(contains("set"), contains("lock", "return set.contains(Character.toLowerCase(ch));"), path, [])).toBe(false);
    // Without the block, or in a language where `synchronized` is a name: a change.
    expect(sameBehaviour(contains("set"), "    public boolean contains(final char ch) {\n        return set.contains(ch);\n    }", path, [])).toBe(false);
    const js = (lock: string) => `function contains(ch) {\n  synchronized(${lock}) {\n    return set.has(ch);\n  }\n}`;
    expect(sameBehaviour(js("set"), js("lock"), "lib/set.js", [])).toBe(false);
  });

  it("locals renamed, nothing else", () => {
    const a = `def total(items):\n    acc = 0\n    for it in items:\n        acc += it.price\n    return acc\n`;
    const b = `def total(items):\n    running = 0\n    for item in items:\n        running += item.price\n    return running\n`;
    expect(sameBehaviour(a, b, "shop/cart.py", [])).toBe(true);
    // A parameter renamed (keyword callers break), an attribute renamed, a global or a call swapped: changes.
    expect(sameBehaviour(a, a.replace(/items/g, "things"), "shop/cart.py", [])).toBe(false);
    expect(sameBehaviour(a, a.replace("it.price", "it.cost"), "shop/cart.py", [])).toBe(false);
    expect(sameBehaviour(a, a.replace("acc = 0", "acc = ZERO"), "shop/cart.py", [])).toBe(false);
    // Two locals made one (a capture), a local renamed to a name the function reads: changes.
    const two = `def f(xs):\n    a = 1\n    b = 2\n    return a + b + len(xs)\n`;
    expect(sameBehaviour(two, two.replace(/\bb\b/g, "a"), "shop/cart.py", [])).toBe(false);
    const reads = `def f(xs):\n    n = len(xs)\n    return n\n`;
    expect(sameBehaviour(reads, reads.replace(/\bn\b/g, "len"), "shop/cart.py", [])).toBe(false);
    // A keyword argument's name is not a local.
    const kw = `def f(x):\n    y = g(key=x)\n    return y\n`;
    expect(sameBehaviour(kw, kw.replace("key=", "other="), "shop/cart.py", [])).toBe(false);
    // JavaScript: let/const locals.
    expect(sameBehaviour("function f(a) {\n  const t = a * 2;\n  return t;\n}", "function f(a) {\n  const twice = a * 2;\n  return twice;\n}", "x.js", [])).toBe(true);
  });

  it("in Python, a loop that only re-yields its items is `yield from` (requests 16b418b); another loop body, an else or another language is not", () => {
    const loop = (inner: string) => `def iter_content(self, chunk_size=1):\n    def generate():\n        if hasattr(self.raw, "stream"):\n            try:\n${inner}            except ProtocolError as e:\n                raise ChunkedEncodingError(e)\n        self._content_consumed = True\n    return generate()\n`;
    const before = loop("                for chunk in self.raw.stream(chunk_size, decode_content=True):\n                    yield chunk\n");
    const after = loop("                yield from self.raw.stream(chunk_size, decode_content=True)\n");
    expect(sameBehaviour(before, after, "requests/models.py", [])).toBe(true);
    expect(sameBehaviour(after, before, "requests/models.py", [])).toBe(true);
    // The loop variable renamed is still the same loop.
    expect(sameBehaviour(before.replace(/chunk\b/g, "piece"), after, "requests/models.py", [])).toBe(true);
    // Yielding something else, more than the item, or a loop with an else clause is another behaviour.
    expect(sameBehaviour(loop("                for chunk in self.raw.stream(chunk_size):\n                    yield chunk.strip()\n"), loop("                yield from self.raw.stream(chunk_size)\n"), "requests/models.py", [])).toBe(false);
    expect(sameBehaviour(loop("                for chunk in self.raw.stream(chunk_size):\n                    yield chunk\n                    count += 1\n"), loop("                yield from self.raw.stream(chunk_size)\n"), "requests/models.py", [])).toBe(false);
    expect(sameBehaviour(loop("                for chunk in self.raw.stream(chunk_size):\n                    yield chunk\n                else:\n                    yield b''\n"), loop("                yield from self.raw.stream(chunk_size)\n                else:\n                    yield b''\n"), "requests/models.py", [])).toBe(false);
    expect(sameBehaviour(loop("                for chunk in self.raw.stream(chunk_size):\n                    yield chunk\n"), loop("                yield from self.raw.stream(chunk_size, True)\n"), "requests/models.py", [])).toBe(false);
  });

  it("comments, docstrings, blank lines and annotations aside; a literal or an operator changed is a change", () => {
    const a = `def f(x: int) -> int:\n    """Doubles."""\n    return x * 2\n`;
    expect(sameBehaviour(a, `def f(x):\n    # twice\n\n    return x * 2\n`, "m.py", [])).toBe(true);
    expect(sameBehaviour(a, a.replace("x * 2", "x * 3"), "m.py", [])).toBe(false);
    expect(sameBehaviour(a, a.replace("x * 2", "x + x"), "m.py", [])).toBe(false);
  });

  it("the wording or stacklevel of a warning, deprecation or log call and an import moved into the body are no change; a new call or another category is", () => {
    // marshmallow 6d7380b: stacklevel added to warnings.warn; flask 8ab4967: a deprecation message reworded (and re-wrapped).
    const warn = (message: string, extra = "") => `def dumps(obj, app=None, **kwargs):\n    encoding = kwargs.pop("encoding", None)\n    if encoding is not None:\n        warnings.warn(\n            ${message},\n            DeprecationWarning,${extra}\n        )\n    return _json.dumps(obj, **kwargs)\n`;
    const base = warn(`"'encoding' is deprecated and will be removed in 2.1."`);
    expect(sameBehaviour(base, warn(`"'encoding' is deprecated and will be removed in Flask 2.1."`), "src/flask/json/__init__.py", [])).toBe(true);
    expect(sameBehaviour(base, warn(`"'encoding' is deprecated and will be"\n            " removed in Flask 2.1."`, "\n            stacklevel=2,"), "src/flask/json/__init__.py", [])).toBe(true);
    expect(sameBehaviour(base, base.replace("DeprecationWarning", "FutureWarning"), "src/flask/json/__init__.py", [])).toBe(false);
    expect(sameBehaviour(base, base.replace("warnings.warn(", "raise ValueError("), "src/flask/json/__init__.py", [])).toBe(false);
    expect(sameBehaviour(base, base.replace("    return _json", '    logger.info("dumped")\n    return _json'), "src/flask/json/__init__.py", [])).toBe(false);
    // express 4dd9705: deprecate('...') reworded; a log line's arguments (not only its text) changing is a change.
    const send = (m: string, arg = "status") => `res.send = function send(body) {\n  if (typeof body === 'number') {\n    deprecate('${m}');\n    debug('send %s', ${arg});\n    this.statusCode = body;\n  }\n  return this.end(body);\n};`;
    expect(sameBehaviour(send("res.send(status): Use res.status(status).end() instead"), send("res.send(status): Use res.sendStatus(status) instead"), "lib/response.js", [])).toBe(true);
    expect(sameBehaviour(send("a"), send("a", "body"), "lib/response.js", [])).toBe(false);
    // astroid 37a5681: a module's import moved into the function that uses it.
    const repr = (local: string) => `def repr_tree(self, ids=False):\n${local}    result = []\n    _repr_tree(self, result, set())\n    return "".join(result)\n`;
    expect(sameBehaviour(repr(""), repr("    import pprint  # pylint: disable=import-outside-toplevel\n\n"), "astroid/nodes/node_ng.py", [])).toBe(true);
    expect(sameBehaviour(repr(""), repr("    from astroid import util\n"), "astroid/nodes/node_ng.py", [])).toBe(true);
    expect(sameBehaviour(repr(""), repr("    util.reset()\n"), "astroid/nodes/node_ng.py", [])).toBe(false);
  });

  it("the message of an exception a raise or throw builds is no change; another class, another argument or a new raise is", () => {
    // httpx 4189b7f: a typo in a RuntimeError's message.
    const raising = (m: string, cls = "RuntimeError") => `    async def aiter_raw(self, chunk_size=None):\n        if self.is_closed:\n            raise StreamClosed()\n        if not isinstance(self.stream, AsyncByteStream):\n            raise ${cls}(${m})\n        self.is_stream_consumed = True\n`;
    const typo = raising(`"Attempted to call an async iterator on an sync stream."`);
    expect(sameBehaviour(typo, raising(`"Attempted to call an async iterator on a sync stream."`), "httpx/_models.py", [])).toBe(true);
    // click 5b9630f: an f-string message put through gettext and str.format.
    expect(sameBehaviour(raising(`f"Unknown color {fg!r}"`), raising(`_("Unknown color {colour!r}").format(colour=fg)`), "src/click/termui.py", [])).toBe(true);
    expect(sameBehaviour(typo, raising(`"Attempted to call an async iterator on an sync stream."`, "TypeError"), "httpx/_models.py", [])).toBe(false);
    expect(sameBehaviour(raising(`"bad", response`), raising(`"worse", request`), "httpx/_models.py", [])).toBe(false);
    expect(sameBehaviour(raising("message"), raising(`"message"`), "httpx/_models.py", [])).toBe(false);
    expect(sameBehaviour(typo, typo.replace("raise StreamClosed()", `raise StreamClosed("closed")\n        raise StreamClosed()`), "httpx/_models.py", [])).toBe(false);
    // JavaScript and Java: `throw new Name(...)`; the exception's other arguments stay.
    const thrown = (m: string) => `function parse(text) {\n  if (!text) throw new errors.ParseError(${m}, text);\n  return JSON.parse(text);\n}`;
    expect(sameBehaviour(thrown(`'empty text'`), thrown(`'no text: ' + typeof text`), "lib/parse.js", [])).toBe(true);
    expect(sameBehaviour(thrown(`'empty text'`), thrown(`'empty text'`).replace(", text)", ", null)"), "lib/parse.js", [])).toBe(false);
  });
});
