import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "./ports.ts";

/**
 * A PostgreSQL cluster of its own (initdb + pg_ctl from the machine's PostgreSQL binaries) on a free loopback port, for
 * runs that stop and restart the database: the machine's shared server on 5432 is never touched. As root the server
 * runs as the `postgres` system user (PostgreSQL refuses to run as root).
 */
export interface TestCluster {
  port: number;
  url(database?: string): string;
  /** `immediate` is a crash (no shutdown checkpoint); `fast` a clean stop. */
  stop(mode?: "fast" | "immediate"): void;
  start(): void;
  destroy(): void;
}

export function postgresBinDir(): string | null {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((name) => existsSync(path.join(root, name, "bin", "pg_ctl")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], "bin") : null;
}

export async function startTestCluster(settings: Record<string, string> = {}): Promise<TestCluster> {
  const bin = postgresBinDir();
  if (!bin) throw new Error("No PostgreSQL binaries under /usr/lib/postgresql/*/bin");
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), "pp-cluster-"));
  chmodSync(dir, 0o777);
  const data = path.join(dir, "data");
  const asRoot = process.getuid?.() === 0;
  const run = (command: string, args: string[]) => {
    const [file, fileArgs] = asRoot
      ? ["runuser", ["-u", "postgres", "--", path.join(bin, command), ...args]]
      : [path.join(bin, command), args];
    const result = spawnSync(file, fileArgs, { encoding: "utf8", cwd: dir });
    if (result.status !== 0) throw new Error(`${command} failed: ${result.stderr || result.stdout}`);
  };
  run("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8", "--locale=C"]);
  // synchronous_commit stays on: a commit the portal was told of must survive the restart (an immediate stop drops
  // the WAL not yet written, which made a session row "vanish" and its token answer 401); fsync=off only risks an
  // operating-system crash, which these tests never cause.
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=200${Object.entries(
    settings,
  )
    .map(([name, value]) => ` -c ${name}=${value}`)
    .join("")}`;
  const start = () => run("pg_ctl", ["-D", data, "-o", options, "-l", path.join(dir, "log"), "-w", "-t", "60", "start"]);
  start();
  let running = true;
  return {
    port,
    url: (database = "postgres") => `postgresql://postgres@127.0.0.1:${port}/${database}`,
    stop(mode = "fast") {
      run("pg_ctl", ["-D", data, "-m", mode, "-w", "stop"]);
      running = false;
    },
    start() {
      start();
      running = true;
    },
    destroy() {
      if (running) {
        try {
          execFileSync(asRoot ? "runuser" : path.join(bin, "pg_ctl"), [
            ...(asRoot ? ["-u", "postgres", "--", path.join(bin, "pg_ctl")] : []),
            "-D",
            data,
            "-m",
            "immediate",
            "stop",
          ]);
        } catch {
          // already stopped
        }
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
