import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export interface RunningServer {
  url: string;
  stop(): Promise<void>;
  /** CPU time the process has used so far (user + system), in µs; undefined where /proc cannot tell (not Linux). */
  cpuMicros(): number | undefined;
  /** The last 4,000 characters the process wrote (its warnings and errors), to explain a failed measurement. */
  recentOutput(): string;
}

/** Linux's clock ticks per second for /proc/<pid>/stat (`getconf CLK_TCK`: 100 on every Linux this runs on). */
const CLOCK_TICKS = 100;

function processCpuMicros(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    // Fields after the command (which may hold spaces, hence the last ")"): utime is the 12th, stime the 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS) * 1_000_000;
  } catch {
    return undefined;
  }
}

/**
 * Starts a compiled entry point (compiled.ts: as production runs it, without a TypeScript loader) in its own Node
 * process and waits until `readyPath` answers 200. `nodeArgs`: the process's own node options (the portal's are the image's,
 * scripts/portal-process.mjs).
 */
export async function startServer(
  entry: string,
  env: Record<string, string>,
  port: number,
  readyPath: string,
  nodeArgs: readonly string[] = [],
): Promise<RunningServer> {
  // BENCH_NODE_ARGS: more options for each measured process's node (e.g. "--cpu-prof --cpu-prof-dir=var/profiles",
  // which Node refuses in NODE_OPTIONS), to see where a row's CPU goes.
  const extraArgs = (process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, ...extraArgs, entry], {
    cwd: repoRoot,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  child.stderr?.on("data", (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${entry} terminó (código ${child.exitCode}):\n${output}`);
    try {
      const response = await fetch(url + readyPath);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`${entry} no respondió en ${url}${readyPath}:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { url, stop: () => stopProcess(child), cpuMicros: () => processCpuMicros(child.pid), recentOutput: () => output };
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}
