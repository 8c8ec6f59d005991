/** Source files for the answer tests: code shaped like the repositories the defects were found in. */

const rustValue = `//! A JSON value.

/// Represents any valid JSON value.
pub enum Value {
    /// Represents a JSON null value.
    Null,
    /// Represents a JSON boolean.
    Bool(bool),
    /// Represents a JSON string.
    String(String),
    /// Represents a JSON array.
    Array(Vec<Value>),
}

impl Value {
${Array.from({ length: 8 }, (_, i) => `    /// Sorts the value's objects, variant ${i}.
    pub fn sort_objects_${i}(&mut self) {
        if let Value::Array(items) = self {
            for item in items.iter_mut() {
                item.sort_objects_${i}();
            }
        }
    }
`).join("\n")}}
`;

const rustError = `/// This type represents all possible errors that can occur when serializing or deserializing JSON data.
pub struct Error {
    err: Box<ErrorImpl>,
}

struct ErrorImpl {
    code: ErrorCode,
    line: usize,
    column: usize,
}

pub enum ErrorCode {
    Message(String),
    EofWhileParsingValue,
}

/// Parse our own error message that looks like "{} at line {} column {}" to work around the erased error struct.
fn make_error(mut msg: String) -> Error {
    let (line, column) = parse_line_col(&mut msg).unwrap_or((0, 0));
    Error { err: Box::new(ErrorImpl { code: ErrorCode::Message(msg), line, column }) }
}

fn parse_line_col(msg: &mut String) -> Option<(usize, usize)> {
    let start_of_suffix = msg.rfind(" at line ")?;
    let _ = start_of_suffix;
    Some((1, 1))
}
`;

const goEngine = `package web

// Engine is the framework's instance, it contains the muxer, middleware and configuration settings.
type Engine struct {
	trees    []string
	handlers []func()
	maxDepth int
}

// Use attaches a global middleware to the engine.
func (engine *Engine) Use(middleware ...func()) {
	engine.handlers = append(engine.handlers, middleware...)
}
`;

/** A Python class longer than a chunk holds: its members become chunks of their own. */
const pythonResponse = `import typing


class Response:
    def __init__(self, status_code: int, content: bytes = b"") -> None:
        self.status_code = status_code
        self._content = content
        self.is_closed = False

${Array.from({ length: 30 }, (_, i) => `    def helper_${i}(self, value: int) -> int:
        """Return the status code shifted by ${i}."""
        total = self.status_code + value
        for step in range(${i}):
            total += step
        if total > 1000:
            total -= 1000
        return total
`).join("\n")}

def unrelated() -> None:
    pass
`;

/** A Java method with the check a trace's line points at. */
const javaStrings = `package org.example.text;

/** Operations on strings. */
public class Strings {

    /**
     * Abbreviates a string using ellipses.
     */
    public static String abbreviate(final String str, final String marker, final int maxWidth) {
        if (str == null) {
            return null;
        }
        final int minWidth = marker.length() + 1;
        if (maxWidth < minWidth) {
            throw new IllegalArgumentException(String.format("Minimum abbreviation width is %d", minWidth));
        }
        if (str.length() <= maxWidth) {
            return str;
        }
        return str.substring(0, maxWidth - marker.length()) + marker;
    }

${Array.from({ length: 14 }, (_, i) => `    /** Repeats a string ${i} times. */
    public static String repeat${i}(final String str) {
        final StringBuilder out = new StringBuilder();
        for (int n = 0; n < ${i}; n++) {
            out.append(str);
        }
        return out.toString();
    }
`).join("\n")}
    /** Pads a string on the left. */
    public static String leftPad(final String str, final int size) {
        final StringBuilder out = new StringBuilder();
        while (out.length() + str.length() < size) {
            out.append(' ');
        }
        return out.append(str).toString();
    }
}
`;

/** A C function longer than a chunk holds: it is cut into windows of 80 lines. */
const cReader = `#include <string.h>
#include "reader.h"

static int processLineItem(reader *r) {
    task *cur = r->task[r->ridx];
    void *obj;
    char *p = readLine(r, NULL);
    if (p == NULL) return READER_ERR;
${Array.from({ length: 190 }, (_, i) => `    if (cur->type == ${i}) { obj = r->fn->createReply(cur, p, ${i}); }`).join("\n")}
    if (r->ridx == 0) r->reply = obj;
    moveToNextTask(r);
    return READER_OK;
}

static int processBulkItem(reader *r) {
    return READER_OK;
}
`;

export const FILES: Record<string, string> = {
  "src/value/mod.rs": rustValue,
  "src/error.rs": rustError,
  "web/gin.go": goEngine,
  "client/models.py": pythonResponse,
  "src/main/java/org/example/text/Strings.java": javaStrings,
  "read.c": cReader,
};

/** The line of Strings.java that throws, as a trace of it would point at. */
export const THROW_LINE = javaStrings.split("\n").findIndex((l) => l.includes("throw new IllegalArgumentException")) + 1;
/** The last line of processLineItem in read.c. */
export const PROCESS_LINE_END = cReader.split("\n").findIndex((l, i, all) => l === "}" && all.slice(0, i).some((x) => x.startsWith("static int processLineItem"))) + 1;
export const RESPONSE_LINE = pythonResponse.split("\n").findIndex((l) => l.startsWith("class Response")) + 1;
export const RESPONSE_END = pythonResponse.split("\n").findLastIndex((l) => l.includes("return total")) + 1;
