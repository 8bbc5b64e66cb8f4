import { LRUCache } from "lru-cache";
import { z } from "zod";

// A provider's answer to a patient's list, kept a few seconds per instance (issue 26 for results, issue 44 for
// appointments): only the provider's answer is kept, never a failure, and reads of one key that arrive together share
// one call to the provider. The access check and the audit of each read stay in the services, on every read.

/** Answers kept per list, at most: about the patients of a few busy minutes. */
const MAX_ANSWERS = 5_000;
/** Items kept per list, at most, so a few patients with long histories cannot fill the memory. */
const MAX_ITEMS = 200_000;

export interface Load<V> {
  (): Promise<V>;
}

export type AnswerCache<V extends readonly unknown[]> = LRUCache<string, V, Load<V>>;

/** A cache of answers kept `ttlSeconds`; 0 keeps nothing (null: lru-cache would read a ttl of 0 as "never expires"). */
export function answerCache<V extends readonly unknown[]>(ttlSeconds: number): AnswerCache<V> | null {
  if (ttlSeconds <= 0) return null;
  return new LRUCache<string, V, Load<V>>({
    max: MAX_ANSWERS,
    maxSize: MAX_ITEMS,
    sizeCalculation: (answer) => answer.length + 1,
    ttl: ttlSeconds * 1000,
    fetchMethod: (_key, _stale, { context }) => context(),
  });
}

/** Whether a read may take a kept answer, or asks the provider and keeps its fresh answer ('Actualizar'). */
export interface ReadOptions {
  refresh?: boolean;
}

/** The kept answer of `key`, or the provider's (through `load`) when none is kept, it expired, or `refresh` asks. */
export async function readThrough<V extends readonly unknown[]>(
  cache: AnswerCache<V> | null | undefined,
  key: string,
  load: Load<V>,
  options: ReadOptions = {},
): Promise<V> {
  if (!cache) return load();
  const answer = await cache.fetch(key, { context: load, forceRefresh: options.refresh === true });
  // fetchMethod always returns the provider's answer or throws, so undefined does not happen; ask if it ever did.
  return answer ?? load();
}

export const refreshMessage = "El parámetro actualizar debe ser true o false";

/** REST `actualizar=true`: the list asks the provider again instead of taking its kept answer ('Actualizar'). */
export const ZActualizar = z
  .enum(["true", "false"], { error: refreshMessage })
  .transform((value) => value === "true")
  .describe("true: pide la lista de nuevo al proveedor en vez de usar su respuesta guardada (botón «Actualizar»)");
