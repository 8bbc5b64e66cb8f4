import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isOwnerAlive, lockFileName, tryAcquireOwnerLock, type LockOwner, type ProcessProbe } from "./owner-lock.ts";

// A pretend process table: pid → start time.
function probeOf(table: Record<number, string | null>): ProcessProbe {
  return { isRunning: (pid) => pid in table, startTime: (pid) => table[pid] ?? null };
}

const owner = (pid: number, startTime: string | null): LockOwner => ({
  pid,
  startTime,
  role: "portal",
  port: 5433,
  since: "2026-01-01T00:00:00Z",
});

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "pp-lock-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const lockFile = () => path.join(dir, lockFileName);
const readLock = () => JSON.parse(readFileSync(lockFile(), "utf8")) as LockOwner;

describe("owner lock of the embedded database folder", () => {
  it("is taken when the folder has none, and records pid, start time and role", () => {
    const attempt = tryAcquireOwnerLock(dir, { role: "command", port: null }, probeOf({ 100: "500" }), 100);
    expect(attempt.acquired).toBe(true);
    expect(readLock()).toMatchObject({ pid: 100, startTime: "500", role: "command", port: null });
  });

  it("is never ignored while its owner runs: the second process gets the owner instead", () => {
    const probe = probeOf({ 100: "500", 200: "900" });
    expect(tryAcquireOwnerLock(dir, { role: "portal", port: null }, probe, 100).acquired).toBe(true);
    const second = tryAcquireOwnerLock(dir, { role: "command", port: null }, probe, 200);
    expect(second).toMatchObject({ acquired: false, owner: { pid: 100, startTime: "500", role: "portal" } });
    expect(readLock().pid).toBe(100);
  });

  it("is taken over when its process is gone", () => {
    writeFileSync(lockFile(), JSON.stringify(owner(100, "500")));
    const attempt = tryAcquireOwnerLock(dir, { role: "portal", port: null }, probeOf({ 200: "900" }), 200);
    expect(attempt).toMatchObject({ acquired: true, tookOverFrom: { pid: 100 } });
    expect(readLock()).toMatchObject({ pid: 200, startTime: "900" });
  });

  it("is taken over when its pid now belongs to another program (recycled pid: other start time)", () => {
    writeFileSync(lockFile(), JSON.stringify(owner(100, "500")));
    const probe = probeOf({ 100: "7777", 200: "900" });
    expect(isOwnerAlive(owner(100, "500"), probe)).toBe(false);
    expect(tryAcquireOwnerLock(dir, { role: "portal", port: null }, probe, 200).acquired).toBe(true);
    expect(readLock().pid).toBe(200);
  });

  it("counts as live when the system cannot tell the start time of a running pid", () => {
    expect(isOwnerAlive(owner(100, "500"), probeOf({ 100: null }))).toBe(true);
    expect(isOwnerAlive(owner(100, null), probeOf({ 100: "500" }))).toBe(true);
  });

  it("is taken over when the file is unreadable (left half-written by a crash)", () => {
    writeFileSync(lockFile(), "{");
    expect(tryAcquireOwnerLock(dir, { role: "portal", port: null }, probeOf({ 200: "900" }), 200).acquired).toBe(true);
  });

  it("announces the port once the owner serves, and is removed only by its owner", () => {
    const probe = probeOf({ 100: "500", 200: "900" });
    const first = tryAcquireOwnerLock(dir, { role: "portal", port: null }, probe, 100);
    if (!first.acquired) throw new Error("expected the lock");
    first.lock.update({ port: 6543 });
    expect(readLock()).toMatchObject({ pid: 100, port: 6543 });
    // Another process took over meanwhile (e.g. this one was thought dead): release leaves that lock alone.
    writeFileSync(lockFile(), JSON.stringify(owner(200, "900")));
    first.lock.release();
    expect(readLock().pid).toBe(200);
  });

  it("recognises this very process as alive with the system probe", () => {
    expect(isOwnerAlive({ ...owner(process.pid, null) })).toBe(true);
    const attempt = tryAcquireOwnerLock(dir, { role: "command", port: null });
    if (!attempt.acquired) throw new Error("expected the lock");
    expect(isOwnerAlive(attempt.lock.current)).toBe(true);
    attempt.lock.release();
  });
});
