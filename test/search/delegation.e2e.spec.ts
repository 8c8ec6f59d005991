import { describe, expect, it } from "vitest";
import { withIndexedRepository } from "./support.ts";

/**
 * A question whose best match is a short entry point that hands its work to another definition ("how is
 * a command formatted?" -> `format_command`, which calls `expand_template`): the definition doing the work
 * is returned right after it, and the offline answer says so and quotes it.
 */
const WIRE = [
  '"""Commands sent to the server over the wire protocol."""',
  "",
  "",
  "def format_command(template, *args):",
  '    """Formats a command for the wire protocol from a printf-style template."""',
  "    parts = list(args)",
  "    return expand_template(template, parts)",
  "",
  "",
  "def expand_template(template, parts):",
  "    out = []",
  "    i = 0",
  "    n = 0",
  "    while i < len(template):",
  "        c = template[i]",
  '        if c == "%" and i + 1 < len(template):',
  "            kind = template[i + 1]",
  '            if kind == "s":',
  "                out.append(str(parts[n]))",
  "                n += 1",
  '            elif kind == "b":',
  '                out.append(parts[n].decode("latin-1"))',
  "                n += 1",
  "            else:",
  "                out.append(kind)",
  "            i += 2",
  "            continue",
  "        out.append(c)",
  "        i += 1",
  '    body = "".join(out).split(" ")',
  '    lines = [f"*{len(body)}"]',
  "    for arg in body:",
  '        lines.append(f"${len(arg)}")',
  "        lines.append(arg)",
  '    return "\\r\\n".join(lines) + "\\r\\n"',
  "",
].join("\n");
const EXPAND = { linestart: 10, lineend: 35 };

const CLIENT = [
  "from app.frames import encode_frame",
  "",
  "",
  "def publish(sock, channel, payload):",
  '    """Publishes a message to a channel over the socket."""',
  "    frame = encode_frame(channel, payload)",
  "    sock.sendall(frame)",
  "",
].join("\n");

const FRAMES = [
  '"""Frames of the publish protocol."""',
  "",
  "",
  "def encode_frame(channel, payload):",
  "    name = channel.encode('utf-8')",
  "    if len(name) > 255:",
  "        raise ValueError('channel name too long')",
  "    body = payload if isinstance(payload, bytes) else str(payload).encode('utf-8')",
  "    header = bytearray()",
  "    header.append(len(name))",
  "    header.extend(name)",
  "    size = len(body)",
  "    while True:",
  "        byte = size & 0x7F",
  "        size >>= 7",
  "        if size:",
  "            header.append(byte | 0x80)",
  "        else:",
  "            header.append(byte)",
  "            break",
  "    return bytes(header) + body",
  "",
].join("\n");

const CHANNELS = [
  '"""Channels of a client."""',
  "",
  "",
  "def close_channel(sock, channel):",
  '    """Closes a channel: its last message is flushed over the socket first."""',
  "    sock.flush(channel)",
  "    sock.close()",
  "",
  "",
  "def channel_messages(sock, channel):",
  '    """The messages of a channel, read from the socket."""',
  "    return sock.read_all(channel)",
  "",
].join("\n");

describe("a short best match's delegate is read next (e2e)", () => {
  const { search, ask } = withIndexedRepository("acme/wire", {
    "app/wire.py": WIRE,
    "app/client.py": CLIENT,
    "app/frames.py": FRAMES,
    "app/channels.py": CHANNELS,
    "app/other.py": "def other():\n    return 1\n",
  });

  it("returns the definition an entry point hands its work to right after it, in its file", async () => {
    const sources = await search("How is a command formatted for the wire protocol from a printf-style template?");
    expect(sources[0]).toMatchObject({ filepath: "app/wire.py", linestart: 4, lineend: 7 });
    expect(sources[1]).toMatchObject({ filepath: "app/wire.py", ...EXPAND });
  });

  it("the offline answer says where the work is done and quotes that code", async () => {
    const answer = await ask("How is a command formatted for the wire protocol from a printf-style template?");
    expect(answer).toContain("Best match: **`format_command`**");
    expect(answer).toContain(`It hands the work to \`expand_template\` (lines ${EXPAND.linestart}–${EXPAND.lineend}), quoted next.`);
    expect(answer).toContain(`\`app/wire.py:${EXPAND.linestart}-${EXPAND.lineend}\``);
    expect(answer).toContain('elif kind == "b":');
  });

  it("a delegate in a module the entry's file imports comes second, at its definition", async () => {
    const sources = await search("How is a message published to a channel over the socket?");
    expect(sources[0]).toMatchObject({ filepath: "app/client.py", linestart: 4 });
    const files = [...new Set(sources.map((s) => s.filepath))];
    expect(files[1]).toBe("app/frames.py");
    expect(sources.find((s) => s.filepath === "app/frames.py")).toMatchObject({ linestart: 4, lineend: 21 });
  });
});
