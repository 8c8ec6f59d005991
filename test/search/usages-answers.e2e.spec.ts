import { describe, expect, it } from "vitest";
import { withIndexedRepository } from "./support.ts";

/**
 * "Where is X called?" answered with no chat model lists the places that call X: not a function whose
 * name only starts like X (`ctxFreeCommand` for `ctxFree`), even when its words match the question better,
 * and not at the cost of a long caller. A follow-up asked twice ("where is it called?") keeps the subject
 * the conversation established.
 */
/** Functions whose names start like `ctxFree` and whose comments say "called": the question's words, no use of it. */
const NOT_CALLERS = ["Command", "CommandBuffer", "Reply", "ReplyObject", "Args"]
  .map((s) => `/* Frees a ${s.toLowerCase()}: called when the ${s.toLowerCase()} is no longer needed. */\nvoid ctxFree${s}(void *p) {\n    free(p);\n}\n`)
  .join("\n");

const CONTEXT_C = `#include <stdlib.h>
#include "context.h"

${NOT_CALLERS}
static ctx *ctxInit(void) {
    ctx *c = calloc(1, sizeof(*c));
    if (c == NULL) return NULL;
    c->obuf = calloc(1, 64);
    if (c->obuf == NULL) {
        ctxFree(c);
        return NULL;
    }
    return c;
}

/* Frees the context and closes its connection. */
void ctxFree(ctx *c) {
    if (c == NULL) return;
    free(c->obuf);
    free(c);
}

int ctxFreeKeepFd(ctx *c) {
    int fd = c->fd;
    c->fd = -1;
    ctxFree(c);
    return fd;
}

ctx *ctxConnectWithOptions(const options *opts) {
    ctx *c = ctxInit();
    if (c == NULL) return NULL;
    c->fd = -1;
    c->flags = opts->flags;
    if (opts->timeout > 0) {
        c->timeout = opts->timeout;
    }
    if (opts->endpoint_type == ENDPOINT_TCP) {
        c->port = opts->port;
        c->host = opts->host;
    } else if (opts->endpoint_type == ENDPOINT_UNIX) {
        c->path = opts->path;
    } else {
        c->err = 1;
    }
    if (opts->push_cb != NULL) {
        c->push_cb = opts->push_cb;
    }
    if (c->err == 0 && opts->keepalive) {
        c->keepalive = 1;
    }
    if (c->err != 0) {
        ctxFree(c);
        return NULL;
    }
    return c;
}
`;

const ASYNC_C = `#include "context.h"

/* Frees the asynchronous context: its callbacks, then the context. */
void asyncFree(async *ac) {
    if (ac->cb != NULL) ac->cb(ac);
    ctxFree(ac->c);
}
`;

describe("'where is X called?' lists the callers of X (e2e)", () => {
  const { ask, converse } = withIndexedRepository("acme/ctx", {
    "context.c": CONTEXT_C,
    "async.c": ASYNC_C,
    "context.h": "typedef struct ctx ctx;\nvoid ctxFree(ctx *c);\nvoid ctxFreeCommand(char *cmd);\n",
  });

  const listed = (message: string) => message.split("\n").filter((l) => l.startsWith("- ")).map((l) => /\*\*`([^`]+)`\*\*/.exec(l)?.[1]);

  it("names every caller and no function that only starts like the name", async () => {
    const message = await ask("Where is ctxFree called?");
    expect(message.split("\n")[0]).toBe("`ctxFree` is used here (best first):");
    const names = listed(message);
    expect(names.filter((n) => n?.startsWith("ctxFree") && n !== "ctxFreeKeepFd")).toEqual([]);
    // The header's prototype (`void ctxFree(ctx *c);`) declares it: no use either.
    expect(message).not.toContain("`context.h`");
    expect(names).toEqual(expect.arrayContaining(["ctxInit", "ctxFreeKeepFd", "ctxConnectWithOptions", "asyncFree"]));
  });

  it("keeps the subject when 'where is it called?' is asked twice", async () => {
    const first = "Where is ctxFree called?";
    const followUp = "where is it called?";
    const again = await converse([
      { role: "user", content: first },
      { role: "assistant", content: "`ctxFree` is used here (best first): ..." },
      { role: "user", content: followUp },
      { role: "assistant", content: "`ctxFree` is used here (best first): ..." },
      { role: "user", content: followUp },
    ]);
    expect(again.message.split("\n")[0]).toBe("`ctxFree` is used here (best first):");
  });
});
