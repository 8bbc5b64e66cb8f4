import { Writable } from "node:stream";
import pino from "pino";
import { describe, expect, it, vi } from "vitest";
import { childLoggerFactory, redactPaths } from "./logging.ts";

function capture(level: string) {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
      done();
    },
  });
  const parent = pino({ level, redact: { paths: redactPaths, censor: "[oculto]" } }, stream);
  return { parent, lines };
}

describe("a request's logger", () => {
  it("makes no pino child for a request that writes nothing at the configured level", () => {
    const { parent, lines } = capture("warn");
    const child = vi.spyOn(parent, "child");
    const logger = childLoggerFactory(parent, { reqId: "r-1" }, {});
    logger.info("incoming request");
    logger.debug("details");
    expect(child).not.toHaveBeenCalled();
    expect(lines).toEqual([]);
  });

  it("writes lines at an enabled level with the request id, redacted like every other line", async () => {
    const { parent, lines } = capture("info");
    const logger = childLoggerFactory(parent, { reqId: "r-2" }, {});
    logger.info({ password: "Secreta2026", route: "/x" }, "request completed");
    logger.warn("slow");
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ reqId: "r-2", password: "[oculto]", route: "/x", msg: "request completed" });
    expect(lines[1]).toMatchObject({ reqId: "r-2", msg: "slow", level: 40 });
  });

  it("gives a child of its own that keeps the request id", async () => {
    const { parent, lines } = capture("info");
    const logger = childLoggerFactory(parent, { reqId: "r-3" }, {});
    logger.child({ feature: "bills" }).error("failed");
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines[0]).toMatchObject({ reqId: "r-3", feature: "bills", msg: "failed" });
  });
});
