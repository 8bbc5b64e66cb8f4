import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { BenchFunction, BenchResult } from "./bench-stats.ts";
import { loadEnvFile } from "../server/lib/env-file.mjs";
import { continueOnImageNode } from "../scripts/image-node.mjs";
loadEnvFile();

// npm run bench [-- <name filter>]: runs every bench/*.bench.ts one after the other, prints one table, writes it as
// JSON under var/reports/ and exits 1 when a budget is missed or a bench fails.

const fmt = (value: number | undefined, digits = 1) => (value !== undefined && Number.isFinite(value) ? value.toFixed(digits) : "-");

function printTable(results: BenchResult[]): void {
  const header = ["bench", "medición", "n", "req/s", "vs techo", "p50 ms", "p95 ms", "p99 ms", "presupuesto", "estado", "nota"];
  const rows = results.map((r) => [
    r.bench,
    r.name,
    String(r.samples),
    r.reqPerSec === undefined ? "-" : Math.round(r.reqPerSec).toLocaleString("es-CL"),
    r.ratioToCeiling === undefined ? "-" : `${(r.ratioToCeiling * 100).toFixed(1)} %`,
    fmt(r.p50Ms),
    fmt(r.p95Ms),
    fmt(r.p99Ms),
    r.budget ?? "-",
    r.withinBudget === undefined ? "" : r.withinBudget ? "OK" : "EXCEDIDO",
    r.note ?? "",
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ");
  console.log(line(header));
  console.log(widths.map((w) => "-".repeat(w)).join("-|-"));
  for (const row of rows) console.log(line(row));
}

function writeReport(results: BenchResult[], failedBenches: string[]): string {
  const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../var/reports");
  mkdirSync(dir, { recursive: true });
  const report = {
    date: new Date().toISOString(),
    machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, memoryGiB: Math.round(os.totalmem() / 2 ** 30), node: process.version },
    failedBenches,
    results,
  };
  const file = path.join(dir, `bench-${report.date.replace(/[:.]/g, "-")}.json`);
  writeFileSync(file, JSON.stringify(report, null, 2));
  writeFileSync(path.join(dir, "bench-latest.json"), JSON.stringify(report, null, 2));
  return file;
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
  const failedBenches: string[] = [];
  for (const file of files) {
    console.log(`▶ ${file}`);
    const started = performance.now();
    try {
      const module = (await import(pathToFileURL(path.join(dir, file)).href)) as { default: BenchFunction };
      results.push(...(await module.default()));
      console.log(`  terminado en ${((performance.now() - started) / 1000).toFixed(1)} s`);
    } catch (error) {
      failedBenches.push(file);
      console.error(`  falló: ${(error as Error).stack ?? String(error)}`);
    }
  }
  console.log("");
  printTable(results);
  console.log(`\nInforme: ${path.relative(process.cwd(), writeReport(results, failedBenches))}`);
  const over = results.filter((r) => r.withinBudget === false);
  for (const r of over) console.error(`Presupuesto excedido: ${r.bench} / ${r.name}: ${(r.misses ?? []).join("; ")}`);
  return failedBenches.length > 0 || over.length > 0 ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // On the production image's Node release when it is installed (scripts/image-node.mjs).
  await continueOnImageNode();
  // Exit explicitly: a bench that left a pool or timer open must not keep the run alive.
  process.exit(await main());
}
