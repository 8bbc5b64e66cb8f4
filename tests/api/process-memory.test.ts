import { execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { portalProcessEnv } from "../../scripts/portal-process.mjs";
import { readResidentByKind, residentByKind, residentSteps } from "../../scripts/soak/process-memory.ts";
import { PASSWORD_HASH_MEMORY_KIB } from "../../server/lib/passwords.ts";

// The soak reads where each replica's resident memory lives from /proc/<pid>/smaps (scripts/soak/process-memory.ts):
// the kinds must add up to the process's RSS and tell V8's machine code, malloc's arenas and a password hash apart.

const ownRssMb = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"))![1]) / 1024;

describe("where a process's resident memory lives", () => {
  it("adds up to the process's RSS, with V8's machine code, malloc and the node binary each present", () => {
    const before = ownRssMb();
    const memory = readResidentByKind(process.pid, PASSWORD_HASH_MEMORY_KIB)!;
    const after = ownRssMb();
    expect(memory.totalMb).toBeGreaterThan(Math.min(before, after) - 2);
    expect(memory.totalMb).toBeLessThan(Math.max(before, after) + 2);
    expect(memory.machineCodeMb).toBeGreaterThan(0);
    expect(memory.mallocMb).toBeGreaterThan(0);
    expect(memory.filesMb).toBeGreaterThan(1);
    expect(memory.passwordHashMb).toBe(0);
  });

  it("sees the block of a password hash while a process hashes, and not after", async () => {
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "--input-type=module",
        "-e",
        `import { hashPassword } from ${JSON.stringify(new URL("../../server/lib/passwords.ts", import.meta.url).href)};
         process.stdin.on("data", async (line) => {
           if (String(line).startsWith("hash")) { let n = 0; const until = Date.now() + 3000; while (Date.now() < until) { await Promise.all([hashPassword("a" + n++), hashPassword("b" + n)]); } }
           process.stdout.write("done\\n");
         });
         process.stdout.write("ready\\n");`,
      ],
      { stdio: ["pipe", "pipe", "inherit"] },
    );
    const lines: string[] = [];
    child.stdout.on("data", (chunk) => lines.push(...String(chunk).trim().split("\n")));
    const waitLine = async (text: string) => {
      while (!lines.includes(text)) await new Promise((resolve) => setTimeout(resolve, 20));
      lines.splice(lines.indexOf(text), 1);
    };
    try {
      await waitLine("ready");
      expect(readResidentByKind(child.pid!, PASSWORD_HASH_MEMORY_KIB)!.passwordHashMb).toBe(0);
      child.stdin.write("hash\n");
      let largest = 0;
      while (!lines.includes("done")) {
        largest = Math.max(largest, readResidentByKind(child.pid!, PASSWORD_HASH_MEMORY_KIB)?.passwordHashMb ?? 0);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      await waitLine("done");
      expect(largest).toBeGreaterThan(1);
      expect(largest).toBeLessThanOrEqual((2 * PASSWORD_HASH_MEMORY_KIB) / 1024);
      child.stdin.write("idle\n");
      await waitLine("done");
      expect(readResidentByKind(child.pid!, PASSWORD_HASH_MEMORY_KIB)!.passwordHashMb).toBe(0);
    } finally {
      child.kill();
    }
  }, 30_000);

  it("counts each mapping by its kind: executable anonymous, arenas, a hash-sized block, files and the rest", () => {
    const smaps = [
      "00400000-00800000 r--p 00000000 fe:00 123 /usr/bin/node",
      "Rss:                1024 kB",
      "01000000-01100000 rw-p 00000000 00:00 0 [heap]",
      "Rss:                 512 kB",
      "7f0000000000-7f0000200000 rw-p 00000000 00:00 0 ",
      "Rss:                2048 kB",
      "7f0004000000-7f0004100000 rwxp 00000000 00:00 0 ",
      "Rss:                3072 kB",
      "7f0010400000-7f0011700000 rw-p 00000000 00:00 0 ",
      "Rss:               19456 kB",
      "1a2b3c040000-1a2b3c080000 rw-p 00000000 00:00 0 ",
      "Rss:                 256 kB",
      "VmFlags: rd wr mr mw me ac sd",
      "7ffd00000000-7ffd00021000 rw-p 00000000 00:00 0 [stack]",
      "Rss:                 132 kB",
    ].join("\n");
    expect(residentByKind(smaps, 19456)).toEqual({
      filesMb: 1,
      mallocMb: 2.5,
      machineCodeMb: 3,
      passwordHashMb: 19,
      otherAnonymousMb: (256 + 132) / 1024,
      totalMb: 1 + 2.5 + 3 + 19 + (256 + 132) / 1024,
    });
  });

  it("lists each step of one kind between two readings of a replica, when it moved, and leaves out a password hash's block", () => {
    const reading = (t: number, replica: string, mallocMb: number, machineCodeMb: number, passwordHashMb = 0) => {
      const kinds = { mallocMb, machineCodeMb, passwordHashMb, filesMb: 60, otherAnonymousMb: 150 };
      return { t, replica, ...kinds, totalMb: Object.values(kinds).reduce((sum, value) => sum + value, 0) };
    };
    const readings = [
      reading(0, "réplica 1", 70, 8),
      reading(0, "réplica 2", 68, 8),
      reading(60_000, "réplica 1", 70.5, 9.9, 19),
      reading(60_000, "réplica 2", 78, 8),
      reading(120_000, "réplica 1", 70.5, 12),
      reading(120_000, "réplica 2", 78, 8),
    ];
    expect(residentSteps(readings, 2)).toEqual([
      { replica: "réplica 2", t: 60_000, kind: "mallocMb", fromMb: 68, toMb: 78 },
      { replica: "réplica 1", t: 120_000, kind: "machineCodeMb", fromMb: 9.9, toMb: 12 },
    ]);
  });
});

// glibc raises its malloc thresholds on its own each time it unmaps a block larger than they are (up to 32 MB, the trim
// threshold to twice that): from then on a block that size comes from an arena and as much freed memory stays at the
// top of one. A fixed MALLOC_TRIM_THRESHOLD_ turns that off (scripts/portal-process.mjs).
describe("malloc's thresholds in a portal process", () => {
  // Frees a 10 MB buffer, then takes a 6 MB one on the main thread and prints how much the main arena ([heap]) grew, in MB.
  const mainArenaGrowthAfterALargeFree = (environment: NodeJS.ProcessEnv) =>
    Number(
      execFileSync(
        process.execPath,
        [
          "--expose-gc",
          "--no-concurrent-array-buffer-sweeping",
          "-e",
          `const { readFileSync } = require("node:fs");
           const heapKib = () => {
             const line = readFileSync("/proc/self/maps", "utf8").split("\\n").find((entry) => entry.endsWith("[heap]"));
             if (!line) return 0;
             const [from, to] = line.split(/\\s+/)[0].split("-").map((address) => parseInt(address, 16));
             return (to - from) / 1024;
           };
           let large = new ArrayBuffer(10 * 1024 * 1024); new Uint8Array(large).fill(1); large = null; gc(); gc();
           setTimeout(() => {
             gc();
             const before = heapKib();
             const next = new ArrayBuffer(6 * 1024 * 1024); new Uint8Array(next).fill(1);
             process.stdout.write(String((heapKib() - before) / 1024));
           }, 50);`,
        ],
        { env: environment, encoding: "utf8" },
      ),
    );
  const { MALLOC_TRIM_THRESHOLD_: _fixedThreshold, MALLOC_MMAP_THRESHOLD_: _mmapThreshold, ...inherited } = process.env;

  it("gives a large block back to the system even after a larger one was freed, where glibc's moving threshold keeps it", () => {
    expect(mainArenaGrowthAfterALargeFree({ ...inherited, ...portalProcessEnv })).toBeLessThan(1);
    const { MALLOC_TRIM_THRESHOLD_: _portalThreshold, ...withoutFixedThreshold } = portalProcessEnv;
    expect(mainArenaGrowthAfterALargeFree({ ...inherited, ...withoutFixedThreshold })).toBeGreaterThanOrEqual(5);
  });
});
