import pg from "pg";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../../server/app.ts";
import { loadConfig } from "../../server/config.ts";
import { openDatabase } from "../../server/db/database.ts";
import type { BenchResult } from "../bench-stats.ts";
import { demoSecondStep } from "./second-factor.ts";

// Every SELECT the hot calls send, EXPLAINed on the 100,000-row data set: a sequential scan of a large table fails the
// bench. The queries are the ones Prisma really sends (captured at the pg driver), with their parameters.

const largeTables = new Set(["User", "Bill", "BillFile", "AuditEvent", "PatientClinic"]);

export interface ExplainCall {
  name: string;
  as: "patient" | "admin";
  rest: string;
}

interface CapturedQuery {
  text: string;
  values: unknown[];
}

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  Plans?: PlanNode[];
}

function scans(node: PlanNode, into: string[] = []): string[] {
  if (node["Relation Name"])
    into.push(`${node["Node Type"]} ${node["Relation Name"]}${node["Index Name"] ? ` (${node["Index Name"]})` : ""}`);
  for (const child of node.Plans ?? []) scans(child, into);
  return into;
}

/** Runs each call once through the real app on `databaseUrl`, capturing its queries, and EXPLAINs them. */
export async function explainCalls(
  bench: string,
  label: string,
  databaseUrl: string,
  calls: ExplainCall[],
  credentials: Record<"patient" | "admin", { rut: string; password: string }>,
): Promise<BenchResult[]> {
  const db = await openDatabase({ kind: "postgres", url: databaseUrl });
  const config = loadConfig({ NODE_ENV: "test" }, { LOG_LEVEL: "silent", PAYMENT_SWEEP_SECONDS: "0", USER_CACHE_SECONDS: "0" });
  const app: FastifyInstance = await buildApp({ config, db, logger: false });
  const explainer = new pg.Client({ connectionString: databaseUrl });
  await explainer.connect();
  const captured: CapturedQuery[] = [];
  const original = pg.Client.prototype.query;
  const results: BenchResult[] = [];
  try {
    const tokens: Record<string, string> = {};
    for (const [who, route] of [
      ["patient", "new-login"],
      ["admin", "admin-login"],
    ] as const) {
      const response = await app.inject({ method: "POST", url: `/api/rcr/v1/auth/${route}`, payload: credentials[who] });
      const first = (response.json() as { payload: { accessToken: string; secondFactor?: string } }).payload;
      tokens[who] = first.accessToken;
      if (first.secondFactor === "verify") {
        const verified = await app.inject({
          method: "POST",
          url: "/api/rcr/v1/auth/verify-otp",
          headers: { authorization: `Bearer ${first.accessToken}` },
          payload: await demoSecondStep(databaseUrl, credentials[who].rut),
        });
        tokens[who] = (verified.json() as { payload: { accessToken: string } }).payload.accessToken;
      }
    }
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      if (this !== explainer) {
        const [first, second] = args as [string | { text: string; values?: unknown[] }, unknown[] | undefined];
        if (typeof first === "string") captured.push({ text: first, values: Array.isArray(second) ? second : [] });
        else if (first && typeof first.text === "string") captured.push({ text: first.text, values: first.values ?? [] });
      }
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof original;
    for (const call of calls) {
      captured.length = 0;
      const response = await app.inject({ method: "GET", url: call.rest, headers: { authorization: `Bearer ${tokens[call.as]}` } });
      if (response.statusCode !== 200) throw new Error(`EXPLAIN ${call.name}: ${response.statusCode} ${response.body.slice(0, 200)}`);
      const selects = captured.filter((query) => /^\s*SELECT/i.test(query.text));
      const found: string[] = [];
      for (const query of selects) {
        const { rows } = await explainer.query<{ "QUERY PLAN": Array<{ Plan: PlanNode }> }>(
          `EXPLAIN (FORMAT JSON) ${query.text}`,
          query.values,
        );
        found.push(...scans(rows[0]!["QUERY PLAN"][0]!.Plan));
      }
      const sequential = found.filter((scan) => scan.startsWith("Seq Scan") && largeTables.has(scan.split(" ")[2]!));
      results.push({
        bench,
        name: `EXPLAIN ${call.name} [${label}]`,
        samples: selects.length,
        p50Ms: Number.NaN,
        budget: "sin Seq Scan en tablas grandes",
        withinBudget: sequential.length === 0,
        misses: sequential.length ? sequential : undefined,
        note: `${selects.length} SELECT: ${[...new Set(found)].join("; ")}`,
      });
    }
  } finally {
    pg.Client.prototype.query = original;
    await explainer.end();
    await app.close();
    await db.close();
  }
  return results;
}
