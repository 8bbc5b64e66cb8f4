import { createServer, type Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { summarize, unansweredReason, type Outcome } from "../../scripts/faults/users.ts";
import { addBuckets, histogramBuckets, histogramP99Between, requestBuckets } from "../../scripts/load/measures.ts";

// The load, fault and soak runs summarize every request they made. A 60-minute soak makes ≈ 130,000: its first run
// ended in "Maximum call stack size exceeded" after the hour, and the samples were lost with the process (issue 46 §2).

describe("the summary of a run's requests", () => {
  it("summarizes more requests than a spread argument list can hold (an hour of soak and more)", () => {
    const outcomes: Outcome[] = Array.from({ length: 300_000 }, (_, i) => ({
      at: i,
      ms: i === 123_456 ? 900 : (i % 100) + 1,
      status: i % 50_000 === 0 ? 503 : 200,
    })) as Outcome[];
    const summary = summarize(outcomes);
    expect(summary).toEqual({ requests: 300_000, failures: 6, p95ms: 96, maxMs: 900 });
  });

  it("counts only the requests inside the window it is given", () => {
    const outcomes = [
      { at: 10, ms: 5, status: 200 },
      { at: 20, ms: 50, status: 0 },
      { at: 30, ms: 7, status: 200 },
    ] as Outcome[];
    expect(summarize(outcomes, 15, 30)).toEqual({ requests: 1, failures: 1, p95ms: 50, maxMs: 50 });
    expect(summarize(outcomes, 100)).toEqual({ requests: 0, failures: 0, p95ms: 0, maxMs: 0 });
  });
});

describe("a request that got no answer", () => {
  // A soak's warm-up listed 19 requests only as "sin respuesta (TypeError)": every fetch failure is a TypeError.
  it("is told by the socket error under fetch's, so a closed connection reads apart from a timeout", async () => {
    // The server reads the request and closes the connection without a word: a keep-alive race, a process killed.
    const server = createServer((socket) => socket.once("data", () => socket.destroy()));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    const reason = await fetch(`http://127.0.0.1:${port}/`).then(
      () => "answered",
      (error: unknown) => unansweredReason(error),
    );
    server.close();
    expect(reason).toBe("TypeError: fetch failed (UND_ERR_SOCKET: other side closed)");
  });

  it("is told apart as a timeout when the server holds the connection without answering", async () => {
    // Its own server that never closes: against the closing one, a busy machine let the close win the race with a 0-ms
    // timeout (CI read "other side closed" where a timeout was meant).
    const held = new Set<Socket>();
    const server = createServer((socket) => void held.add(socket));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    const timedOut = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(50) }).catch((error: unknown) =>
      unansweredReason(error),
    );
    for (const socket of held) socket.destroy();
    server.close();
    expect(timedOut).toMatch(/^TimeoutError: /);
  });
});

describe("the instances' request durations, read off their /metrics", () => {
  const scrape = (listCount: number, slowList: number) =>
    [
      `portal_http_request_duration_seconds_bucket{le="0.25",route="/api/rcr/v1/files/list/:accountId",method="GET",status="200"} ${listCount - slowList}`,
      `portal_http_request_duration_seconds_bucket{le="+Inf",route="/api/rcr/v1/files/list/:accountId",method="GET",status="200"} ${listCount}`,
      `portal_http_request_duration_seconds_bucket{le="0.25",route="/api/rcr/v1/files/list/:accountId",method="GET",status="404"} 1`,
      `portal_http_request_duration_seconds_bucket{le="+Inf",route="/api/rcr/v1/files/list/:accountId",method="GET",status="404"} 1`,
      `portal_http_request_duration_seconds_bucket{le="0.25",route="/metrics",method="GET",status="200"} 40`,
      `portal_http_request_duration_seconds_bucket{le="+Inf",route="/metrics",method="GET",status="200"} 40`,
    ].join("\n");

  it("adds up each route's statuses and leaves out the scrapes themselves", () => {
    const routes = requestBuckets(scrape(10, 4));
    expect([...routes.keys()]).toEqual(["GET /api/rcr/v1/files/list/:accountId"]);
    expect(routes.get("GET /api/rcr/v1/files/list/:accountId")).toEqual(
      new Map([
        [0.25, 7],
        [Infinity, 11],
      ]),
    );
  });

  it("gives the p99 of the answers between two readings, not of all since the start", () => {
    const first = requestBuckets(scrape(100, 0)).get("GET /api/rcr/v1/files/list/:accountId")!;
    const later = requestBuckets(scrape(200, 50)).get("GET /api/rcr/v1/files/list/:accountId")!;
    // 100 more answers, 50 of them over 250 ms: the p99 is in the open bucket (reported at its lower bound).
    expect(histogramP99Between(first, later, 250)).toMatchObject({ ticks: 100, lateShare: 0.5, p99Ms: 250 });
    expect(addBuckets(first, first).get(Infinity)).toBe(202);
  });
});

describe("one unlabelled histogram, read off an instance's /metrics", () => {
  it("reads the audit rows' waits by bucket and not a histogram whose name only begins the same", () => {
    const text = [
      "# HELP portal_audit_row_wait_seconds Espera de cada fila de auditoría",
      'portal_audit_row_wait_seconds_bucket{le="0.1"} 90',
      'portal_audit_row_wait_seconds_bucket{le="0.25"} 97',
      'portal_audit_row_wait_seconds_bucket{le="+Inf"} 100',
      "portal_audit_row_wait_seconds_sum 9.5",
      'portal_audit_row_wait_seconds_total_bucket{le="0.1"} 1',
      'portal_audit_insert_seconds_bucket{le="0.1"} 5',
    ].join("\n");
    const buckets = histogramBuckets(text, "portal_audit_row_wait_seconds");
    expect(buckets).toEqual(
      new Map([
        [0.1, 90],
        [0.25, 97],
        [Infinity, 100],
      ]),
    );
    // 3 of 100 rows waited more than 250 ms: the p99 lies in the open bucket, reported at its lower bound.
    expect(histogramP99Between(new Map(), buckets, 250)).toMatchObject({ ticks: 100, lateShare: 0.03, p99Ms: 250 });
  });
});
