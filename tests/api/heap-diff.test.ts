import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { compareHeapSnapshots } from "../../scripts/heap-diff.mjs";

// scripts/heap-diff.mjs is how the soak's heap snapshots are read (docs/rendimiento.md, issue 46 §2): it must name
// what a process kept between two snapshots, and who keeps it.

const folder = mkdtempSync(path.join(tmpdir(), "pp-heap-diff-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

// A process that takes a snapshot, then keeps 20,000 orders in a module-level list, then takes another.
const leakyProcess = `
  const { writeHeapSnapshot } = require("node:v8");
  class KeptOrder { constructor(n) { this.number = n; this.note = "orden " + n; } }
  globalThis.keptOrders = [];
  writeHeapSnapshot(${JSON.stringify(path.join(folder, "before.heapsnapshot"))});
  for (let n = 0; n < 20000; n++) globalThis.keptOrders.push(new KeptOrder(n));
  writeHeapSnapshot(${JSON.stringify(path.join(folder, "after.heapsnapshot"))});
`;

describe("heap snapshot comparison", () => {
  it("names the kind of object a process kept between two snapshots, how many, and the list that holds them", () => {
    const child = spawnSync(process.execPath, ["-e", leakyProcess], { encoding: "utf8" });
    expect(child.status, child.stderr).toBe(0);

    const { growth, holders, byType } = compareHeapSnapshots(
      path.join(folder, "before.heapsnapshot"),
      path.join(folder, "after.heapsnapshot"),
    );

    const kept = growth.find((entry) => entry.kind === "object | KeptOrder");
    expect(kept?.count).toBe(20000);
    expect(kept!.bytes).toBeGreaterThan(20000 * 16);
    expect(byType.find((row) => row.type === "object")!.after).toBeGreaterThan(byType.find((row) => row.type === "object")!.before);
    const chains = holders.find((holder) => holder.kind === "object | KeptOrder")?.chains ?? [];
    expect(chains[0]?.[1]).toBe(20000);
    expect(chains[0]?.[0]).toContain("keptOrders");
  });
});
