// node scripts/heap-diff.mjs <before.heapsnapshot> <after.heapsnapshot> [--json]
// Compares two heap snapshots of the same process (the soak's --heap-snapshots writes them; ids are stable within a
// process): how much each kind of object grew, by V8's node type and name, and for the objects that are new in the
// second snapshot, who holds the kinds that grew most (the first retainer chain, five steps up). It answers "is the
// growth data the portal keeps, or code V8 compiled?" without opening DevTools (docs/rendimiento.md, issue 46 §2).
import { readFileSync } from "node:fs";

/** @param {string} file */
function readSnapshot(file) {
  const snapshot = JSON.parse(readFileSync(file, "utf8"));
  const meta = snapshot.snapshot.meta;
  const fields = meta.node_fields;
  return {
    snapshot,
    width: fields.length,
    type: fields.indexOf("type"),
    name: fields.indexOf("name"),
    id: fields.indexOf("id"),
    size: fields.indexOf("self_size"),
    edgeCount: fields.indexOf("edge_count"),
    types: meta.node_types[0],
  };
}

/** A node's kind, "type | name" (strings by type only: their text is data, not a kind). */
function kindOf(heap, at) {
  const nodeType = heap.types[heap.snapshot.nodes[at + heap.type]];
  return nodeType.includes("string")
    ? nodeType
    : `${nodeType} | ${String(heap.snapshot.strings[heap.snapshot.nodes[at + heap.name]]).slice(0, 80)}`;
}

/** Bytes and counts by kind, and bytes by V8 node type. */
function kinds(heap) {
  const { snapshot, width, type, size, types } = heap;
  const byKind = new Map();
  const byType = new Map();
  for (let at = 0; at < snapshot.nodes.length; at += width) {
    const nodeType = types[snapshot.nodes[at + type]];
    const bytes = snapshot.nodes[at + size];
    byType.set(nodeType, (byType.get(nodeType) ?? 0) + bytes);
    const label = kindOf(heap, at);
    const kind = byKind.get(label) ?? { count: 0, bytes: 0 };
    kind.count += 1;
    kind.bytes += bytes;
    byKind.set(label, kind);
  }
  return { byKind, byType };
}

/** For the nodes of `after` that `before` did not have and whose kind is `label`: their retainer chains, counted. */
function retainersOfNew(before, after, label, limit = 8) {
  const known = new Set();
  for (let at = 0; at < before.snapshot.nodes.length; at += before.width) known.add(before.snapshot.nodes[at + before.id]);
  const { snapshot, width, id, edgeCount, type, types } = after;
  const edgeMeta = snapshot.snapshot.meta;
  const edgeWidth = edgeMeta.edge_fields.length;
  const edgeType = edgeMeta.edge_fields.indexOf("type");
  const edgeName = edgeMeta.edge_fields.indexOf("name_or_index");
  const edgeTo = edgeMeta.edge_fields.indexOf("to_node");
  const edgeTypes = edgeMeta.edge_types[0];
  const count = snapshot.nodes.length / width;
  const synthetic = (node) => types[snapshot.nodes[node * width + type]] === "synthetic";
  /** @type {Array<[number, string] | undefined>} the first strong retainer of each node */
  const firstRetainer = new Array(count);
  let edge = 0;
  for (let node = 0; node < count; node++) {
    for (let k = 0; k < snapshot.nodes[node * width + edgeCount]; k++, edge += edgeWidth) {
      const kind = edgeTypes[snapshot.edges[edge + edgeType]];
      const to = snapshot.edges[edge + edgeTo] / width;
      if (kind === "weak") continue;
      // A real holder is worth more than a GC root's handle (a snapshot taken while a function runs sees its locals
      // through a handle scope first): a synthetic retainer gives way to the first other one.
      const held = firstRetainer[to];
      if (held && !(synthetic(held[0]) && !synthetic(node))) continue;
      // An element's index is left out, so that the 20,000 entries of one list make one chain, not 20,000.
      const edgeLabel = kind === "element" || kind === "hidden" ? "[]" : snapshot.strings[snapshot.edges[edge + edgeName]];
      firstRetainer[to] = [node, `${kind}:${edgeLabel}`];
    }
  }
  const nodeLabel = (node) => kindOf(after, node * width);
  const chains = new Map();
  for (let node = 0; node < count; node++) {
    if (nodeLabel(node) !== label || known.has(snapshot.nodes[node * width + id])) continue;
    const steps = [];
    for (let current = node, depth = 0; depth < 5; depth++) {
      const retainer = firstRetainer[current];
      if (!retainer) break;
      steps.push(`${retainer[1]} ← ${nodeLabel(retainer[0])}`);
      current = retainer[0];
    }
    const chain = steps.join("  ⟵  ");
    chains.set(chain, (chains.get(chain) ?? 0) + 1);
  }
  return [...chains].sort((a, b) => b[1] - a[1]).slice(0, limit);
}

/** The comparison of two snapshot files: growth by node type and by kind, biggest first, and who holds the new ones. */
export function compareHeapSnapshots(beforeFile, afterFile, { top = 25, retainersOf = 3 } = {}) {
  const before = readSnapshot(beforeFile);
  const after = readSnapshot(afterFile);
  const a = kinds(before);
  const b = kinds(after);
  const byType = [...new Set([...a.byType.keys(), ...b.byType.keys()])]
    .map((nodeType) => ({ type: nodeType, before: a.byType.get(nodeType) ?? 0, after: b.byType.get(nodeType) ?? 0 }))
    .sort((x, y) => y.after - y.before - (x.after - x.before));
  const growth = [...new Set([...a.byKind.keys(), ...b.byKind.keys()])]
    .map((label) => {
      const old = a.byKind.get(label) ?? { count: 0, bytes: 0 };
      const now = b.byKind.get(label) ?? { count: 0, bytes: 0 };
      return { kind: label, count: now.count - old.count, bytes: now.bytes - old.bytes };
    })
    .sort((x, y) => y.bytes - x.bytes)
    .slice(0, top);
  const holders = growth
    .filter((entry) => entry.count > 0 && entry.kind.includes(" | "))
    .slice(0, retainersOf)
    .map((entry) => ({ kind: entry.kind, chains: retainersOfNew(before, after, entry.kind) }));
  return { byType, growth, holders };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [beforeFile, afterFile] = process.argv.slice(2).filter((arg) => !arg.startsWith("--"));
  if (!beforeFile || !afterFile) {
    console.error("uso: node scripts/heap-diff.mjs <antes.heapsnapshot> <después.heapsnapshot> [--json]");
    process.exit(2);
  }
  const result = compareHeapSnapshots(beforeFile, afterFile);
  if (process.argv.includes("--json")) {
    console.log(JSON.stringify(result, null, 2));
  } else {
    const mb = (bytes) => (bytes / 1e6).toFixed(2);
    console.log("Por tipo de V8 (MB, antes → después):");
    for (const row of result.byType) console.log(`  ${row.type.padEnd(20)} ${mb(row.before)} → ${mb(row.after)}`);
    console.log("\nLo que más creció (objetos, bytes, tipo | nombre):");
    for (const row of result.growth) console.log(`  ${String(row.count).padStart(7)} ${String(row.bytes).padStart(10)}  ${row.kind}`);
    for (const { kind, chains } of result.holders) {
      console.log(`\nQuién retiene los nuevos «${kind}»:`);
      for (const [chain, count] of chains) console.log(`  ${count} × ${chain}`);
    }
  }
}
