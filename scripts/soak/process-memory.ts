import { readFileSync } from "node:fs";

// Where a replica's resident memory lives, read from /proc/<pid>/smaps (issue 46 §2): V8's reports (/metrics) cannot
// tell a step of native memory from one of V8's own pages, and the soak of 30-11-2026 blamed a login's argon2id hash
// for a step that smaps showed to be V8's compiled code. Each mapping's Rss goes to one kind:
// - machineCode: anonymous executable mappings, V8's code range (JIT code, with the embedded builtins remapped beside it);
// - malloc: glibc's main arena ([heap]) and its thread arenas (anonymous, 64 MiB-aligned, at most 64 MiB: glibc's
//   HEAP_MAX_SIZE on 64-bit; a 256 KiB V8 page lands on such an address once in 256, and is then counted here);
// - passwordHash: a block of exactly the argon2id memory cost (server/lib/passwords.ts), which @node-rs/argon2's
//   allocator (mimalloc) maps for one hash and unmaps after it;
// - files: mappings of files (the node binary, libraries, native addons);
// - otherAnonymous: the rest: V8's heap pages and large objects, thread stacks, buffers.

export interface ResidentByKind {
  machineCodeMb: number;
  mallocMb: number;
  passwordHashMb: number;
  filesMb: number;
  otherAnonymousMb: number;
  totalMb: number;
}

export const residentKinds = ["machineCodeMb", "mallocMb", "passwordHashMb", "filesMb", "otherAnonymousMb"] as const;

const GLIBC_HEAP_MAX_KIB = 64 * 1024;

/** The resident memory of one process's smaps text, by kind (MB). */
export function residentByKind(smaps: string, passwordHashKib: number): ResidentByKind {
  const kib = { machineCodeMb: 0, mallocMb: 0, passwordHashMb: 0, filesMb: 0, otherAnonymousMb: 0 };
  let kind: keyof typeof kib | undefined;
  for (const line of smaps.split("\n")) {
    if (/^[0-9a-f]+-[0-9a-f]+ /.test(line)) {
      const [range = "", permissions = "", , , , ...rest] = line.split(" ").filter(Boolean);
      const [from = "0", to = "0"] = range.split("-");
      const name = rest.join(" ");
      const sizeKib = Number((BigInt(`0x${to}`) - BigInt(`0x${from}`)) / 1024n);
      if (name === "[heap]") kind = "mallocMb";
      else if (name.startsWith("/")) kind = "filesMb";
      else if (name) kind = "otherAnonymousMb";
      else if (permissions.includes("x")) kind = "machineCodeMb";
      else if (sizeKib === passwordHashKib) kind = "passwordHashMb";
      else if (BigInt(`0x${from}`) % BigInt(GLIBC_HEAP_MAX_KIB * 1024) === 0n && sizeKib <= GLIBC_HEAP_MAX_KIB) kind = "mallocMb";
      else kind = "otherAnonymousMb";
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && kind) kib[kind] += Number(rss[1]);
  }
  const mb = Object.fromEntries(Object.entries(kib).map(([key, value]) => [key, value / 1024])) as Omit<ResidentByKind, "totalMb">;
  return { ...mb, totalMb: Object.values(mb).reduce((sum, value) => sum + value, 0) };
}

/** The same, read from a live process; undefined when it is gone or cannot be read. */
export function readResidentByKind(pid: number, passwordHashKib: number): ResidentByKind | undefined {
  try {
    return residentByKind(readFileSync(`/proc/${pid}/smaps`, "utf8"), passwordHashKib);
  } catch {
    return undefined;
  }
}

export interface ResidentStep {
  replica: string;
  /** ms since the load started, of the reading after the step */
  t: number;
  kind: (typeof residentKinds)[number];
  fromMb: number;
  toMb: number;
}

/**
 * Where one kind of a replica's resident memory moved by at least minMb from one reading to the next: a slope tells
 * that memory rose, a step tells when and in what (the soaks of 1-12 and 3-12-2026 each saw one 6–10 MB step of
 * malloc's arenas, once, and flat before and after). A password hash's block comes and goes whole and is left out.
 */
export function residentSteps(readings: Array<{ t: number; replica: string } & ResidentByKind>, minMb: number): ResidentStep[] {
  const last = new Map<string, ResidentByKind>();
  const steps: ResidentStep[] = [];
  for (const reading of readings) {
    const before = last.get(reading.replica);
    last.set(reading.replica, reading);
    if (!before) continue;
    for (const kind of residentKinds) {
      if (kind === "passwordHashMb") continue;
      if (Math.abs(reading[kind] - before[kind]) >= minMb)
        steps.push({ replica: reading.replica, t: reading.t, kind, fromMb: before[kind], toMb: reading[kind] });
    }
  }
  return steps;
}
