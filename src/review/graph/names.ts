/**
 * Names too common to tell whose call they are (./broken-callers.ts): the methods of the languages'
 * own types and libraries (a repository's `get` or `update` is no evidence that `d.get(k)` calls it),
 * and the global functions a bare call may reach without an import.
 */
export const COMMON_METHOD_NAMES: ReadonlySet<string> = new Set([
  // Python built-in types and common library objects
  "get", "set", "pop", "update", "append", "extend", "insert", "remove", "clear", "copy", "keys", "values", "items", "setdefault",
  "add", "discard", "index", "count", "sort", "reverse", "join", "split", "rsplit", "strip", "lstrip", "rstrip", "replace", "format",
  "encode", "decode", "lower", "upper", "startswith", "endswith", "find", "rfind", "read", "readline", "readlines", "write", "writelines",
  "close", "open", "flush", "seek", "tell", "send", "recv", "connect", "run", "start", "stop", "wait", "put", "acquire", "release",
  "match", "search", "sub", "group", "groups", "fetch", "execute", "commit", "rollback", "load", "loads", "dump", "dumps", "parse",
  "call", "apply", "bind", "emit", "on", "once", "off", "push", "shift", "unshift", "slice", "splice", "concat", "map", "filter",
  "reduce", "forEach", "some", "every", "includes", "indexOf", "then", "catch", "finally", "resolve", "reject", "has", "delete",
  "toString", "valueOf", "trim", "test", "exec", "end", "next", "handle", "process", "init", "setup", "create", "build",
  "save", "reset", "log", "debug", "info", "warn", "warning", "error", "exception", "critical",
  "assert_called_with", "assertEqual", "assertTrue", "raises", "request", "head", "post", "patch", "options", "all", "json", "text",
]);

/** Functions callable without an import (Python built-ins, JavaScript globals). */
export const GLOBAL_NAMES: ReadonlySet<string> = new Set([
  "abs", "all", "any", "ascii", "bin", "bool", "breakpoint", "bytearray", "bytes", "callable", "chr", "classmethod", "compile", "complex",
  "delattr", "dict", "dir", "divmod", "enumerate", "eval", "exec", "filter", "float", "format", "frozenset", "getattr", "globals", "hasattr",
  "hash", "help", "hex", "id", "input", "int", "isinstance", "issubclass", "iter", "len", "list", "locals", "map", "max", "memoryview", "min",
  "next", "object", "oct", "open", "ord", "pow", "print", "property", "range", "repr", "reversed", "round", "set", "setattr", "slice",
  "sorted", "staticmethod", "str", "sum", "super", "tuple", "type", "vars", "zip", "__import__",
  "require", "setTimeout", "setInterval", "clearTimeout", "clearInterval", "setImmediate", "parseInt", "parseFloat", "isNaN", "isFinite",
  "encodeURIComponent", "decodeURIComponent", "encodeURI", "decodeURI", "escape", "unescape", "fetch", "queueMicrotask", "structuredClone",
  "Number", "String", "Boolean", "Array", "Object", "Symbol", "Error", "Date", "RegExp", "Promise", "Map", "Set", "WeakMap", "Buffer",
]);

/** Method names of Go's and Rust's standard interfaces, traits and types (Go's compared with a lower-case first letter too). */
const GO_RUST_METHOD_NAMES: ReadonlySet<string> = new Set([
  // Go
  "String", "Error", "Read", "Write", "Close", "Len", "Less", "Swap", "Lock", "Unlock", "RLock", "RUnlock", "Get", "Set", "Add", "Del",
  "Delete", "Do", "Done", "Wait", "Err", "Value", "Load", "Store", "Reset", "Start", "Stop", "Run", "Handle", "ServeHTTP", "Unwrap",
  "Is", "As", "Next", "Scan", "Marshal", "Unmarshal", "MarshalJSON", "UnmarshalJSON", "Printf", "Println", "Print", "Sprintf", "Errorf",
  "Infof", "Debugf", "Warnf", "Fatalf", "Fatal", "Context", "Name", "Type", "Key", "Bytes", "Seek", "Flush", "Sum", "Hash", "Copy",
  // Rust
  "new", "default", "clone", "clone_from", "fmt", "from", "into", "try_from", "try_into", "as_ref", "as_mut", "eq", "ne", "cmp",
  "partial_cmp", "hash", "drop", "len", "is_empty", "iter", "iter_mut", "into_iter", "get_mut", "contains", "unwrap", "expect", "and_then",
  "ok", "err", "is_some", "is_none", "take", "borrow", "borrow_mut", "lock", "poll", "to_string", "as_str", "deref", "deref_mut", "with",
  "finish", "from_str", "to_owned", "collect", "extend", "entry", "write_str", "write_fmt", "into_inner", "map_err", "unwrap_or",
]);

/** A method name too common to tell whose call it is, in `language`. */
export function isCommonMethodName(name: string, language: string): boolean {
  if (COMMON_METHOD_NAMES.has(name)) return true;
  if (language !== "go" && language !== "rust") return false;
  return GO_RUST_METHOD_NAMES.has(name) || (language === "go" && COMMON_METHOD_NAMES.has(name.charAt(0).toLowerCase() + name.slice(1)));
}
