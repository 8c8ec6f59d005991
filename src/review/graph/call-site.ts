/** One call of a name as the broken-callers finding reads it (./calls.ts, ./go-rust-calls.ts). */
export type CallSite = {
  name: string;
  /** 1-based line of the called name, and the last line of the call. */
  line: number;
  endLine: number;
  /**
   * `name(...)`, `receiver.name(...)` (Go's `pkg.Name(...)` too), `new name(...)` / `new receiver.name(...)`,
   * or a Rust path `Type::name(...)` / `module::name(...)`.
   */
  form: "bare" | "member" | "new" | "path";
  /** The object a member is called on, or the path before a Rust `::name`, as written (`self`, `utils`, `this.app`, `crate::util`); null otherwise. */
  receiver: string | null;
  /** Positional arguments (splats not counted). */
  positional: number;
  /** Keyword argument names (Python). */
  keywords: string[];
  /** A `*args` (Python), `...spread` (JS) or `xs...` (Go) argument: the positional count is unknown. */
  splat: boolean;
  /** A `**kwargs` argument (Python): the keywords are unknown. */
  keywordSplat: boolean;
  /** The source line holding the called name. */
  lineText: string;
};
