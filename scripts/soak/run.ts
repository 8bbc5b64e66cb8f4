import { mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { startStack } from "../faults/harness.ts";
import { continueOnImageNode } from "../image-node.mjs";
import { portalNodeArgs } from "../portal-process.mjs";
import { isFailure, startLoad, summarize, type Outcome } from "../faults/users.ts";
import { PASSWORD_HASH_MEMORY_KIB } from "../../server/lib/passwords.ts";
import { readResidentByKind, residentKinds, residentSteps, type ResidentByKind } from "./process-memory.ts";
import { loopBuckets, histogramP99Between } from "../load/measures.ts";
import {
  judgedFromMs,
  memoryChartSvg,
  replicaVerdicts,
  rssWithinBudget,
  slopePerMinute,
  soakBudget,
  type ConnectionSample,
  type MemorySample,
} from "./report.ts";

// npm run test:soak [-- --minutes 30] [--warm-minutes 3] [--heap-snapshots] (issue 46 §2): the stack of npm run stack
// (two replicas behind the proxy, supervisor, PostgreSQL and Redis of the run's own, the mocks) with every background job
// running — mail (staff create users, anonymous users ask for password recovery), the search for new results and the appointment
// reminders every minute, the payment sweep every 5 s — under a steady mixed load of 100 patients, 4 staff and 6 anonymous users (each thinking
// 1–5 s, scripts/faults/users.ts). Every 10 s: each replica's RSS and V8 heap (its /metrics) and the database's
// connection count. It passes when, over the last 20 minutes (the last two thirds of a shorter run), each replica's RSS
// and heap grow by at most 0.1 MB/min (least squares), the event loop's p99 stays ≤ 50 ms, nothing fails (no answer or
// a 5xx) and the connection count is flat. Writes var/soak/soak-<time>.{json,md,svg} and prints where. Once a minute it
// also reads each replica's /proc/<pid>/smaps and reports, for the judged window, where the RSS went by kind (V8's
// machine code, malloc, a password hash, files, V8's heap and the rest: ./process-memory.ts), informative.
// --heap-snapshots: each replica writes a heap snapshot (node --heapsnapshot-signal=SIGWINCH) at the start of the
// judged window and at the end, into var/soak/, to compare in Chrome's DevTools (Memory → Comparison). Not SIGUSR2:
// close-with-grace shuts the server down on it, so the first try restarted both replicas. A snapshot stops its
// replica for seconds, so a run with snapshots finds where memory goes; its event-loop figures do not count.
// --warm-minutes 3 (default): before the measured minutes, the same mix thinks 0.1–0.5 s instead of 1–5 s (≈ 10 times
// the calls) for that long, not sampled. A portal that has run for weeks has long since compiled its hot code; V8
// optimises a function only after enough calls, and at the soak's rate (≈ 40 requests/s per replica) heap snapshots
// showed functions still crossing that threshold 10–30 min in, so the judged window measured the compiler's warm-up
// (its code space) as memory growth. The prelude gives those calls first; --warm-minutes 0 judges a cold process. On its
// own it did not flatten the kept heap: most of that rise was V8's memory reducer throwing compiled code away
// (scripts/portal-process.mjs, --no-memory-reducer).

// On the production image's Node release when it is installed (scripts/image-node.mjs): the replicas run this script's node.
await continueOnImageNode();

const args = process.argv.slice(2);
const minutesArg = args.indexOf("--minutes");
const MINUTES = minutesArg >= 0 ? Number(args[minutesArg + 1]) : 30;
const HEAP_SNAPSHOTS = args.includes("--heap-snapshots");
const warmArg = args.indexOf("--warm-minutes");
const WARM_MINUTES = warmArg >= 0 ? Number(args[warmArg + 1]) : 3;
if (!Number.isFinite(MINUTES) || MINUTES < 3) {
  console.error("soak: --minutes debe ser un número de al menos 3");
  process.exit(2);
}
if (!Number.isFinite(WARM_MINUTES) || WARM_MINUTES < 0) {
  console.error("soak: --warm-minutes debe ser un número de 0 o más");
  process.exit(2);
}
const SAMPLE_MS = 10_000;
const SNAPSHOT_SIGNAL = "SIGWINCH";
const mix = { patients: 100, staff: 4, anonymous: 6 };
const outDir = "var/soak";
mkdirSync(outDir, { recursive: true });

// More node options for the stack's processes (scripts/supervisor.mjs): the caller's, or with --heap-snapshots the
// snapshot signal's instead.
const supervisedNodeArgs = HEAP_SNAPSHOTS
  ? `--heapsnapshot-signal=${SNAPSHOT_SIGNAL} --diagnostic-dir=${outDir}`
  : (process.env.SUPERVISED_NODE_ARGS ?? "");

console.log(`soak: levantando la pila (dos réplicas, PostgreSQL, Redis, simuladores) para ${MINUTES} min…`);
const stack = await startStack(
  {
    RESULT_NOTICE_CRON: "* * * * *",
    // Tomorrow's appointment reminders every minute too (each appointment is reminded once: the later runs find it sent).
    APPOINTMENT_REMINDER_CRON: "* * * * *",
    PAYMENT_SWEEP_SECONDS: "5",
    SUPERVISED_NODE_ARGS: supervisedNodeArgs,
  },
  {},
);
const replicas = stack.instancePorts.map((port, index) => ({ name: `réplica ${index + 1} (:${port})`, port }));
const database = new pg.Client({ connectionString: stack.databaseUrl });
await database.connect();

const memory: MemorySample[] = [];
const connections: ConnectionSample[] = [];
// Once a minute, where each replica's RSS lives (its /proc/<pid>/smaps by kind: scripts/soak/process-memory.ts).
const residents: Array<{ t: number; replica: string } & ResidentByKind> = [];
// A step this size in a minute is more than a slope of 0.1 MB/min makes in the whole judged window (2 MB in 20 min).
const RESIDENT_STEP_MB = 2;
const buckets = new Map<string, Array<{ t: number; buckets: Map<number, number> }>>();
const missed = new Map<string, number>();
let startedAt = 0;
async function sample(keepResidents = false) {
  const t = Date.now() - startedAt;
  // Both replicas at once, each given most of the 10 s: a replica too busy to answer its /metrics in that time leaves a
  // gap (counted, and shown in the table) rather than a made-up value.
  const texts = await Promise.all(
    replicas.map((replica) =>
      fetch(`http://127.0.0.1:${replica.port}/metrics`, { signal: AbortSignal.timeout(9_000) }).then(
        (response) => (response.ok ? response.text() : ""),
        () => "",
      ),
    ),
  );
  const readings: typeof residents = [];
  for (const [index, replica] of replicas.entries()) {
    const text = texts[index]!;
    const value = (name: string) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, "m").exec(text)?.[1] ?? NaN);
    if (!text) missed.set(replica.name, (missed.get(replica.name) ?? 0) + 1);
    const pid = stack.pidOn(replica.port);
    const resident = pid ? readResidentByKind(pid, PASSWORD_HASH_MEMORY_KIB) : undefined;
    if (resident) readings.push({ t, replica: replica.name, ...resident });
    memory.push({
      t,
      replica: replica.name,
      rssMb: value("process_resident_memory_bytes") / 1024 / 1024,
      rssNoHashMb: resident && resident.passwordHashMb === 0 ? resident.totalMb : NaN,
      heapMb: value("nodejs_heap_size_used_bytes") / 1024 / 1024,
      keptHeapMb: value("portal_heap_used_after_gc_bytes") / 1024 / 1024 || NaN,
      codeSpaceMb: heapSpacesMb(text, "used").code ?? NaN,
      heapTotalMb: value("nodejs_heap_size_total_bytes") / 1024 / 1024,
      externalMb: value("nodejs_external_memory_bytes") / 1024 / 1024,
      spaceTotalsMb: heapSpacesMb(text, "total"),
    });
    const read = loopBuckets(text);
    if (read.size) buckets.set(replica.name, [...(buckets.get(replica.name) ?? []), { t, buckets: read }]);
  }
  // Once a minute (and at the end), the readings by kind are kept for the report.
  if (keepResidents || memory.length % (6 * replicas.length) === 0) residents.push(...readings);
  const { rows } = await database.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
  );
  connections.push({ t, connections: rows[0]!.n });
}

/** Where each replica's RSS went over the judged window, by kind (first and last reading of /proc/<pid>/smaps in it). */
function residentChanges(fromMs: number): string[] {
  const names: Record<(typeof residentKinds)[number], string> = {
    machineCodeMb: "código de máquina de V8",
    otherAnonymousMb: "heap de V8 y otra memoria anónima",
    mallocMb: "malloc (arenas de glibc)",
    passwordHashMb: "hash de contraseña en curso",
    filesMb: "archivos (node, bibliotecas)",
  };
  const rows = replicas.flatMap((replica) => {
    const own = residents.filter((entry) => entry.replica === replica.name && entry.t >= fromMs);
    const first = own[0];
    const last = own.at(-1);
    if (!first || !last || first === last) return [];
    const cell = (kind: (typeof residentKinds)[number] | "totalMb") =>
      `${first[kind].toFixed(1)} → ${last[kind].toFixed(1)} (${last[kind] - first[kind] >= 0 ? "+" : ""}${(last[kind] - first[kind]).toFixed(2)})`;
    return [`| ${replica.name} | ${residentKinds.map(cell).join(" | ")} | ${cell("totalMb")} |`];
  });
  if (!rows.length) return [];
  const steps = residentSteps(residents, RESIDENT_STEP_MB).map(
    (step) =>
      `- ${step.replica}, min ${(step.t / 60_000).toFixed(0)}${step.t >= fromMs ? " (en la ventana juzgada)" : ""}: ${names[step.kind]} ${step.fromMb.toFixed(1)} → ${step.toMb.toFixed(1)} MB`,
  );
  return [
    "",
    `Memoria residente por tipo en la ventana juzgada (MB, /proc/<pid>/smaps; informativo, scripts/soak/process-memory.ts):`,
    "",
    `| Réplica | ${residentKinds.map((kind) => names[kind]).join(" | ")} | total |`,
    `| --- | ${residentKinds.map(() => "---").join(" | ")} | --- |`,
    ...rows,
    "",
    `Escalones: un tipo que se movió ≥ ${RESIDENT_STEP_MB} MB de una lectura a la siguiente (una por minuto, toda la corrida)${steps.length ? ":" : ": ninguno."}`,
    ...(steps.length ? ["", ...steps] : []),
  ];
}

/** The requests that failed (no answer or a 5xx), grouped by call, status and message: what to look for in the logs. */
function failedRequests(outcomes: Outcome[], phase: string): string[] {
  const groups = new Map<string, number>();
  for (const outcome of outcomes) {
    if (!isFailure(outcome)) continue;
    const key = `${outcome.name}: ${outcome.status === 0 ? "sin respuesta" : outcome.status}${outcome.message ? ` (${outcome.message})` : ""}`;
    groups.set(key, (groups.get(key) ?? 0) + 1);
  }
  return [...groups].map(([key, count]) => `- fallidas en ${phase}: ${count} × ${key}`);
}

/** The newest heap snapshot of `pid` in outDir (one not in `taken`), or undefined when it has none yet. */
function newSnapshot(pid: number, taken: Set<string>): string | undefined {
  const file = readdirSync(outDir).find((name) => name.endsWith(".heapsnapshot") && name.includes(`.${pid}.`) && !taken.has(name));
  return file ? `${outDir}/${file}` : undefined;
}

/** Each V8 heap space's bytes in use or reserved, in MB, from prom-client's nodejs_heap_space_size_{used,total}_bytes{space="…"}. */
function heapSpacesMb(metricsText: string, kind: "used" | "total"): Record<string, number> {
  const spaces: Record<string, number> = {};
  for (const match of metricsText.matchAll(new RegExp(`^nodejs_heap_space_size_${kind}_bytes\\{space="([^"]+)"\\} (\\S+)$`, "gm")))
    spaces[match[1]!] = Number(match[2]) / 1024 / 1024;
  return spaces;
}

/** Each replica's snapshots, in the order taken, by pid: compared at the end with scripts/heap-diff.mjs. */
const snapshotFiles = new Map<number, string[]>();

/** Asks each replica for a heap snapshot and waits until each file is written whole (its size stays the same). */
async function snapshot(label: string) {
  if (!HEAP_SNAPSHOTS) return;
  const taken = new Set(readdirSync(outDir));
  const pids: number[] = [];
  for (const replica of replicas) {
    const pid = stack.pidOn(replica.port);
    if (pid) {
      process.kill(pid, SNAPSHOT_SIGNAL);
      pids.push(pid);
    }
    console.log(`soak: instantánea del heap (${label}) pedida a ${replica.name}, pid ${pid}`);
  }
  for (const pid of pids) {
    let last = -1;
    for (let tries = 0; tries < 120; tries++) {
      await sleep(1_000);
      const file = newSnapshot(pid, taken);
      const size = file ? statSync(file).size : -1;
      if (size > 0 && size === last) {
        snapshotFiles.set(pid, [...(snapshotFiles.get(pid) ?? []), file!]);
        break;
      }
      last = size;
    }
  }
}

const partialFile = `${outDir}/soak-${new Date().toISOString().replace(/[:.]/g, "-")}.partial.json`;
const users = mix.patients + mix.staff + mix.anonymous;
let warmUp: ReturnType<typeof summarize> | undefined;
let warmingOutcomes: Outcome[] = [];
if (WARM_MINUTES > 0) {
  console.log(`soak: calentamiento de ${WARM_MINUTES} min con la misma mezcla, pensando 0,1–0,5 s (no se muestrea)…`);
  const warming = startLoad(stack.proxyUrl, users, { mix, thinkMs: [100, 500] });
  await sleep(WARM_MINUTES * 60_000);
  await warming.stop();
  warmUp = summarize(warming.outcomes);
  warmingOutcomes = warming.outcomes;
  console.log(`soak: calentamiento: ${warmUp.requests} solicitudes, ${warmUp.failures} fallidas, p95 ${warmUp.p95ms} ms`);
}
const load = startLoad(stack.proxyUrl, users, { mix });
startedAt = Date.now();
const totalMs = MINUTES * 60_000;
const fromMs = judgedFromMs(totalMs);
let snapshotTaken = false;
let exitCode = 1;
try {
  while (Date.now() - startedAt < totalMs) {
    await sample();
    if (!snapshotTaken && Date.now() - startedAt >= fromMs) {
      snapshotTaken = true;
      await snapshot("inicio de la ventana juzgada");
    }
    const t = Math.round((Date.now() - startedAt) / 60_000);
    const last = memory.slice(-replicas.length);
    if (memory.length % (6 * replicas.length) === 0) {
      console.log(
        `soak: min ${t}: ${last.map((m) => `${m.replica} RSS ${m.rssMb.toFixed(0)} MB heap ${m.heapMb.toFixed(0)} MB (retenido ${m.keptHeapMb.toFixed(0)})`).join(" · ")} · ${connections.at(-1)?.connections} conexiones`,
      );
      // The samples so far go to disk too: a run that dies before its report (as the first 60-min run did, in its
      // summary) still leaves what it measured.
      writeFileSync(partialFile, JSON.stringify({ minutes: MINUTES, fromMs, memory, connections }));
    }
    await sleep(SAMPLE_MS - ((Date.now() - startedAt) % SAMPLE_MS));
  }
  await sample(true);
  await snapshot("final");
  for (const files of snapshotFiles.values())
    if (files.length === 2) console.log(`soak: qué creció entre las instantáneas: node scripts/heap-diff.mjs ${files.join(" ")}`);
  await load.stop();

  const summary = summarize(load.outcomes, startedAt);
  const verdicts = replicaVerdicts(memory, fromMs);
  const loops = replicas.map((replica) => {
    const series = buckets.get(replica.name) ?? [];
    const first = series.find((entry) => entry.t >= fromMs) ?? series[0];
    const last = series.at(-1);
    return {
      replica: replica.name,
      ...(first && last ? histogramP99Between(first.buckets, last.buckets, soakBudget.eventLoopP99Ms) : null),
    };
  });
  const judgedConnections = connections.filter((sample) => sample.t >= fromMs).map((sample) => sample.connections);
  const connectionSlope = slopePerMinute(connections, fromMs, (sample) => sample.connections);
  const checks = [
    ...verdicts.flatMap((v) => [
      {
        what: `${v.replica}: RSS ≤ ${soakBudget.slopeMbPerMin} MB/min`,
        ok: rssWithinBudget(v),
        value: `${v.rssSlope.toFixed(3)} MB/min (sin ${v.rssLeftOut} de ${v.rssSamples} muestras, leídas con un hash de contraseña en curso; con todas: ${v.rssEverySampleSlope.toFixed(3)} MB/min)`,
      },
      {
        what: `${v.replica}: heap retenido (tras cada recolección completa) ≤ ${soakBudget.slopeMbPerMin} MB/min`,
        ok: v.keptHeapSlope <= soakBudget.slopeMbPerMin,
        value: `${v.keptHeapSlope.toFixed(3)} MB/min (heap muestreado: ${v.heapSlope.toFixed(3)} MB/min, informativo)`,
      },
    ]),
    ...loops.map((l) => ({
      what: `${l.replica}: bucle de eventos p99 ≤ ${soakBudget.eventLoopP99Ms} ms`,
      ok: l.lateShare !== undefined && l.lateShare <= 0.01,
      value: l.p99Ms === undefined ? "sin datos" : `${l.p99Ms.toFixed(1)} ms (${((l.lateShare ?? 0) * 100).toFixed(2)} % de tics > 50 ms)`,
    })),
    {
      what: "nada falló (sin respuesta o 5xx)",
      ok: summary.failures === 0 && summary.requests > 0 && (warmUp?.failures ?? 0) === 0,
      value: `${summary.failures} de ${summary.requests}${warmUp ? ` (calentamiento: ${warmUp.failures} de ${warmUp.requests})` : ""}`,
    },
    {
      what: `conexiones a la base de datos planas (≤ ${soakBudget.connectionSlopePerMin}/min)`,
      ok: Math.abs(connectionSlope) <= soakBudget.connectionSlopePerMin,
      value: `${connectionSlope.toFixed(3)}/min, entre ${Math.min(...judgedConnections)} y ${Math.max(...judgedConnections)}`,
    },
  ];
  const passed = checks.every((check) => check.ok);
  exitCode = passed ? 0 : 1;

  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const window = `${((totalMs - fromMs) / 60_000).toFixed(0)} últimos min de ${MINUTES}`;
  // The replicas run the node that runs this script (process.execPath), with the stack's options and any more given:
  // a run on the image's Node 24 and one on the machine's Node 20 differ by ≈ 100 MB of RSS per replica.
  const runtime = {
    node: process.version,
    nodeArgs: [...portalNodeArgs, ...supervisedNodeArgs.split(" ").filter(Boolean)],
  };
  const table = [
    `Soak ${new Date().toISOString()} · ${MINUTES} min · ${mix.patients} pacientes, ${mix.staff} del personal, ${mix.anonymous} anónimos · Node ${runtime.node} ${runtime.nodeArgs.join(" ")} · ${summary.requests} solicitudes, p95 ${summary.p95ms} ms, máx. ${Math.round(summary.maxMs)} ms · ventana juzgada: ${window}${warmUp ? ` · antes, ${WARM_MINUTES} min de calentamiento (${warmUp.requests} solicitudes, pensando 0,1–0,5 s)` : " · sin calentamiento"}`,
    "",
    "| Réplica | RSS al inicio → final (MB) | Pendiente RSS (MB/min) | Heap retenido al inicio → final (MB) | Pendiente heap retenido (MB/min) | Pendiente heap muestreado (MB/min) | Pendiente espacio de código (MB/min) |",
    "| --- | --- | --- | --- | --- | --- | --- |",
    ...verdicts.map(
      (v) =>
        `| ${v.replica} | ${v.rssStartMb.toFixed(0)} → ${v.rssEndMb.toFixed(0)} | ${v.rssSlope.toFixed(3)} | ${v.keptHeapStartMb.toFixed(0)} → ${v.keptHeapEndMb.toFixed(0)} | ${v.keptHeapSlope.toFixed(3)} | ${v.heapSlope.toFixed(3)} | ${v.codeSpaceSlope.toFixed(3)} |`,
    ),
    ...residentChanges(fromMs),
    "",
    ...checks.map((check) => `- ${check.ok ? "✓" : "✗"} ${check.what}: ${check.value}`),
    ...failedRequests(
      load.outcomes.filter((outcome) => outcome.at >= startedAt),
      "medición",
    ),
    ...failedRequests(warmingOutcomes, "calentamiento"),
    ...[...missed].map(
      ([replica, n]) => `- ${replica}: ${n} de ${memory.length / replicas.length} muestras sin respuesta de /metrics en 9 s`,
    ),
    "",
  ].join("\n");
  const base = `${outDir}/soak-${stamp}`;
  writeFileSync(`${base}.md`, table);
  writeFileSync(`${base}.svg`, memoryChartSvg(memory, fromMs, `Soak de ${MINUTES} min: RSS y heap por réplica`));
  writeFileSync(
    `${base}.json`,
    JSON.stringify(
      {
        minutes: MINUTES,
        warmMinutes: WARM_MINUTES,
        runtime,
        warmUp,
        mix,
        budget: soakBudget,
        fromMs,
        summary,
        checks,
        memory,
        residents,
        connections,
        loops,
      },
      null,
      2,
    ),
  );
  console.log(table);
  console.log(`soak: ${passed ? "cumple" : "no cumple"} · tabla ${base}.md · gráfico ${base}.svg · datos ${base}.json`);
} finally {
  await database.end().catch(() => {});
  await stack.close();
}
process.exit(exitCode);
