import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { BenchFunction, BenchResult } from "./bench-stats.ts";

// npm run bench [-- <name filter>]: runs every bench/*.bench.ts one after the other and prints one table.
// Each bench module's default export returns its measurements; the run exits 1 when a p95 is over its budget
// or a bench fails.

const fmt = (ms: number) => (Number.isFinite(ms) ? ms.toFixed(1) : "-");

function printTable(results: BenchResult[]): void {
  const header = ["bench", "medición", "n", "p50 ms", "p95 ms", "máx ms", "presupuesto p95", "estado", "nota"];
  const rows = results.map((r) => [
    r.bench,
    r.name,
    String(r.samples),
    fmt(r.p50Ms),
    fmt(r.p95Ms),
    fmt(r.maxMs),
    r.budgetP95Ms === undefined ? "-" : `≤ ${r.budgetP95Ms}`,
    r.budgetP95Ms === undefined ? "" : r.p95Ms <= r.budgetP95Ms ? "OK" : "EXCEDIDO",
    r.note ?? "",
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ");
  console.log(line(header));
  console.log(widths.map((w) => "-".repeat(w)).join("-|-"));
  for (const row of rows) console.log(line(row));
}

async function main(): Promise<number> {
  const dir = path.dirname(fileURLToPath(import.meta.url));
  const filters = process.argv.slice(2);
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".bench.ts") && (filters.length === 0 || filters.some((filter) => f.includes(filter))))
    .sort();
  if (files.length === 0) {
    console.error("No hay benchmarks que ejecutar.");
    return 1;
  }
  const results: BenchResult[] = [];
  let failed = false;
  for (const file of files) {
    console.log(`▶ ${file}`);
    const started = performance.now();
    try {
      const module = (await import(pathToFileURL(path.join(dir, file)).href)) as { default: BenchFunction };
      results.push(...(await module.default()));
      console.log(`  terminado en ${((performance.now() - started) / 1000).toFixed(1)} s`);
    } catch (error) {
      failed = true;
      console.error(`  falló: ${(error as Error).stack ?? String(error)}`);
    }
  }
  console.log("");
  printTable(results);
  const over = results.filter((r) => r.budgetP95Ms !== undefined && !(r.p95Ms <= r.budgetP95Ms));
  for (const r of over) console.error(`Presupuesto excedido: ${r.bench} / ${r.name}: p95 ${fmt(r.p95Ms)} ms > ${r.budgetP95Ms} ms`);
  return failed || over.length > 0 ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // Exit explicitly: a bench that left a pool or timer open must not keep the run alive.
  process.exit(await main());
}
