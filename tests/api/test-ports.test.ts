import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { freePort } from "../helpers/ports.ts";

// CI once failed with EADDRINUSE on the portal port `npm start` had been given: freePort asked the system for a port
// (listen(0)), released it, and during the ten seconds before the portal listened on it the system gave the same port
// to an outgoing connection or another test's listen(0), which draw from the same ephemeral range.

/** The range Linux draws outgoing connections' and listen(0)'s ports from (32768–60999 by default). */
function ephemeralRange(): { low: number; high: number } {
  const [low, high] = readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/).map(Number);
  return { low: low!, high: high! };
}

describe("free ports for the processes a test starts", () => {
  it("are never ones the system itself may hand to an outgoing connection or a listen(0) meanwhile", async () => {
    const { low } = ephemeralRange();
    for (let i = 0; i < 50; i += 1) {
      const port = await freePort();
      expect(port).toBeGreaterThanOrEqual(1024);
      expect(port).toBeLessThan(low);
    }
  });

  it("are not handed out twice in one test process, and can be listened on", async () => {
    const ports = await Promise.all(Array.from({ length: 200 }, () => freePort()));
    expect(new Set(ports).size).toBe(ports.length);
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(ports[0], "127.0.0.1", resolve));
    await new Promise((resolve) => server.close(resolve));
  });
});
