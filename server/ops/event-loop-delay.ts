import { Histogram, type Registry } from "prom-client";

// How late the event loop runs, as a Prometheus histogram (portal_event_loop_delay_seconds): each observation is how
// late a timer due every SAMPLE_MS fired. prom-client's nodejs_eventloop_lag_p50/p90/p99 are percentiles of the span
// between two scrapes, reset at each, and they include the sampling interval itself (an idle process reports p99 ≈
// 23.5 ms at the 20 ms resolution set here). Percentiles of separate spans cannot be added up; a histogram can, over
// any span (histogram_quantile over rate() in Prometheus), which is how the load run (issue 24) reads its p99 over
// 5 minutes.

const SAMPLE_MS = 10;

export function trackEventLoopDelay(registry: Registry): { stop(): void } {
  const delay = new Histogram({
    name: "portal_event_loop_delay_seconds",
    help: "Atraso del bucle de eventos: cuánto después de lo debido corrió un temporizador de cada 10 ms",
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  let due = performance.now() + SAMPLE_MS;
  const timer = setInterval(() => {
    const now = performance.now();
    delay.observe(Math.max(0, now - due) / 1000);
    due = now + SAMPLE_MS;
  }, SAMPLE_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
