import { describe, expect, it } from "vitest";
import { withIndexedRepository } from "./support.ts";

/**
 * A header library that declares its classes in `x.h` and defines their methods in `x-inl.h`. A report
 * names the method as C++ and Rust write it, `class::method`, in its prose and with a possessive
 * ("stdout_sink_base::log's behaviour"): the method's definition is what it asks for, not the class's
 * declaration.
 */
/** A header of the library: its includes, then `body` inside its namespaces. */
const inSinksNamespace = (includes: string[], body: string[]): string =>
  ["#pragma once", "", ...includes, "", "namespace logging {", "namespace sinks {", "", ...body, "", "} // namespace sinks", "} // namespace logging", ""].join("\n");

const FILES = {
  "include/sinks/stdout_sinks.h": inSinksNamespace(["#include <cstdio>", "#include <mutex>", "#include <sinks/sink.h>"], [
    "// A sink that writes to a console stream: the base of the stdout and stderr sinks. Its behavior",
    "// differs on Windows, where it writes through a console handle rather than the FILE stream.",
    "template<typename ConsoleMutex>",
    "class stdout_sink_base : public sink",
    "{",
    "public:",
    "    using mutex_t = typename ConsoleMutex::mutex_t;",
    "    explicit stdout_sink_base(FILE *file);",
    "    ~stdout_sink_base() override = default;",
    "",
    "    void log(const message &msg) override;",
    "    void flush() override;",
    "    void set_pattern(const std::string &pattern) override;",
    "",
    "protected:",
    "    mutex_t &mutex_;",
    "    FILE *file_;",
    "    std::unique_ptr<formatter> formatter_;",
    "#ifdef _WIN32",
    "    HANDLE handle_; // Windows: the console handle behind the stream",
    "#endif",
    "};",
    "",
    "// Writes to stdout: the inconsistent behaviour of the base sink shows on every platform.",
    "template<typename ConsoleMutex>",
    "class stdout_sink : public stdout_sink_base<ConsoleMutex>",
    "{",
    "public:",
    "    stdout_sink();",
    "};",
  ]),
  "include/sinks/stdout_sinks-inl.h": inSinksNamespace(["#include <sinks/stdout_sinks.h>"], [
    "template<typename ConsoleMutex>",
    "stdout_sink_base<ConsoleMutex>::stdout_sink_base(FILE *file)",
    "    : mutex_(ConsoleMutex::mutex())",
    "    , file_(file)",
    "    , formatter_(make_default_formatter())",
    "{",
    "}",
    "",
    "template<typename ConsoleMutex>",
    "void stdout_sink_base<ConsoleMutex>::log(const message &msg)",
    "{",
    "    std::lock_guard<mutex_t> lock(mutex_);",
    "    memory_buf_t formatted;",
    "    formatter_->format(msg, formatted);",
    "    ::fwrite(formatted.data(), sizeof(char), formatted.size(), file_);",
    "#ifdef _WIN32",
    "    ::fflush(file_);",
    "#endif",
    "}",
    "",
    "template<typename ConsoleMutex>",
    "void stdout_sink_base<ConsoleMutex>::flush()",
    "{",
    "    std::lock_guard<mutex_t> lock(mutex_);",
    "    fflush(file_);",
    "}",
    "",
    "template<typename ConsoleMutex>",
    "void stdout_sink_base<ConsoleMutex>::set_pattern(const std::string &pattern)",
    "{",
    "    std::lock_guard<mutex_t> lock(mutex_);",
    "    formatter_ = make_pattern_formatter(pattern);",
    "}",
  ]),
  "include/sinks/sink.h": inSinksNamespace([], [
    "// Every sink formats a message and writes it somewhere.",
    "class sink",
    "{",
    "public:",
    "    virtual ~sink() = default;",
    "    virtual void log(const message &msg) = 0;",
    "    virtual void flush() = 0;",
    "    virtual void set_pattern(const std::string &pattern) = 0;",
    "};",
  ]),
};

describe("a report names a method as class::method (e2e)", () => {
  const { search } = withIndexedRepository("acme/console-log", FILES);

  it("answers with the method's definition, not its class's declaration", async () => {
    const refs = await search("stdout_sink_base::log's behavior differs on Windows\n\nIt flushes every time on Windows, but not on other platforms.");
    expect(refs[0]).toMatchObject({ filepath: "include/sinks/stdout_sinks-inl.h", linestart: 16 });
    expect(refs[0]!.lineend).toBe(26);
  });
});
