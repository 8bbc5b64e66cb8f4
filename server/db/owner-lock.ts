import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { linkSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";

// One process at a time opens an embedded PGlite folder: two PostgreSQL engines writing one folder lose writes (or
// corrupt it). The owner leaves this file in the folder; everyone else reads it to find (and connect to) the owner.
// A process is named by pid *and* start time, so a pid the system recycled for another program is not taken for the owner.

export const lockFileName = "portal-pacientes.lock";

export interface LockOwner {
  pid: number;
  /** When the process started, as the system reports it; null when the system cannot tell. */
  startTime: string | null;
  role: "portal" | "command";
  /** Loopback port where the owner serves the database (PostgreSQL protocol); null while it starts up. */
  port: number | null;
  since: string;
}

/** How the lock asks the system about processes (replaced in unit tests). */
export interface ProcessProbe {
  isRunning(pid: number): boolean;
  startTime(pid: number): string | null;
}

export const systemProbe: ProcessProbe = {
  isRunning(pid) {
    try {
      process.kill(pid, 0);
      return true;
    } catch (error) {
      // EPERM: it runs, under another user.
      return (error as NodeJS.ErrnoException).code === "EPERM";
    }
  },
  startTime(pid) {
    try {
      // Linux: field 22 of /proc/<pid>/stat, in clock ticks since boot (after the command name, which may hold spaces).
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
    } catch {
      // elsewhere (macOS, BSD)
    }
    try {
      const started = execFileSync("ps", ["-o", "lstart=", "-p", String(pid)], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
      return started.trim() || null;
    } catch {
      return null;
    }
  },
};

/** A lock is live while its process runs and, when both are known, started when the lock says it did. */
export function isOwnerAlive(owner: LockOwner, probe: ProcessProbe = systemProbe): boolean {
  if (!probe.isRunning(owner.pid)) return false;
  if (owner.startTime === null) return true;
  const startTime = probe.startTime(owner.pid);
  // Unknown now: never ignore a process that may be the owner.
  return startTime === null || startTime === owner.startTime;
}

function readOwner(file: string): LockOwner | "missing" | "unreadable" {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "missing";
    throw error;
  }
  try {
    const owner = JSON.parse(text) as LockOwner;
    return Number.isInteger(owner.pid) && owner.pid > 0 ? owner : "unreadable";
  } catch {
    return "unreadable";
  }
}

function sameOwner(a: LockOwner, b: LockOwner) {
  return a.pid === b.pid && a.startTime === b.startTime;
}

/** Writes the whole file aside, then links it into place: the lock never exists half-written. */
function writeAside(file: string, owner: LockOwner): string {
  const aside = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  writeFileSync(aside, `${JSON.stringify(owner)}\n`);
  return aside;
}

function createIfAbsent(file: string, owner: LockOwner): boolean {
  const aside = writeAside(file, owner);
  try {
    linkSync(aside, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    unlinkSync(aside);
  }
}

/** The lock this process holds. */
export class OwnerLock {
  constructor(
    readonly file: string,
    private owner: LockOwner,
  ) {}

  get current(): LockOwner {
    return this.owner;
  }

  /** Announces a change (the port, once the server listens); atomic for readers. */
  update(patch: Partial<Pick<LockOwner, "port">>) {
    if (!this.stillMine()) return;
    this.owner = { ...this.owner, ...patch };
    renameSync(writeAside(this.file, this.owner), this.file);
  }

  release() {
    if (this.stillMine()) unlinkSync(this.file);
  }

  private stillMine() {
    const current = readOwner(this.file);
    return typeof current === "object" && sameOwner(current, this.owner);
  }
}

export type LockAttempt = { acquired: true; lock: OwnerLock; tookOverFrom: LockOwner | null } | { acquired: false; owner: LockOwner };

/**
 * Takes the folder's lock, taking over one left by a process that is gone (or whose pid now names another program).
 * A live owner is never ignored: the answer is then that owner.
 */
export function tryAcquireOwnerLock(
  dataDir: string,
  claim: Pick<LockOwner, "role" | "port">,
  probe: ProcessProbe = systemProbe,
  pid = process.pid,
): LockAttempt {
  const file = path.join(dataDir, lockFileName);
  let tookOverFrom: LockOwner | null = null;
  for (let attempt = 0; attempt < 10; attempt++) {
    const mine: LockOwner = { pid, startTime: probe.startTime(pid), ...claim, since: new Date().toISOString() };
    if (createIfAbsent(file, mine)) return { acquired: true, lock: new OwnerLock(file, mine), tookOverFrom };
    const current = readOwner(file);
    if (current === "missing") continue;
    if (current !== "unreadable" && isOwnerAlive(current, probe)) return { acquired: false, owner: current };
    // Stale: move it aside (only one process can), and put it back if what was moved turns out to be a live lock
    // another process wrote in between.
    const aside = `${file}.${pid}.stale`;
    try {
      renameSync(file, aside);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") continue;
      throw error;
    }
    const moved = readOwner(aside);
    if (typeof moved === "object" && isOwnerAlive(moved, probe) && (current === "unreadable" || !sameOwner(moved, current))) {
      try {
        linkSync(aside, file);
      } catch {
        // someone else's lock is in place already
      }
    } else if (typeof moved === "object") {
      tookOverFrom = moved;
    }
    unlinkSync(aside);
  }
  throw new Error(`No se pudo tomar el candado ${file}: otros procesos lo disputan. Intente de nuevo.`);
}
