/**
 * What a creeping heap holds: compares two V8 heap snapshots of the same process (the soak's
 * `--heap-snapshots DIR`). V8 numbers objects in the order they were made and keeps the number for an
 * object's life, so the objects of the second snapshot numbered above the first's highest are those made
 * between the two and still alive. They are summed by kind and name (constructor, closure's function, "string"),
 * largest first, and for the largest groups a few retaining paths (who holds them) are printed.
 *
 *   node --import tsx bench/lib/heap-diff.ts <earlier.heapsnapshot> <later.heapsnapshot> [--top N]
 */
import { readFileSync } from "node:fs";

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] }; node_count: number };
  nodes: number[];
  edges: number[];
  strings: string[];
}

function load(file: string): Snapshot {
  return JSON.parse(readFileSync(file, "utf8")) as Snapshot;
}

const [earlierFile, laterFile] = process.argv.slice(2).filter((arg) => !arg.startsWith("--"));
const topIndex = process.argv.indexOf("--top");
const top = topIndex > 0 ? Number(process.argv[topIndex + 1]) : 25;
if (!earlierFile || !laterFile) throw new Error("usage: heap-diff.ts <earlier.heapsnapshot> <later.heapsnapshot> [--top N]");

/** Embedder ("native") and synthetic nodes are numbered apart from V8's objects (from the top of the range): left out. */
const OUTSIDE_V8 = new Set(["native", "synthetic"]);

function maxId(snapshot: Snapshot): number {
  const fields = snapshot.snapshot.meta.node_fields;
  const width = fields.length;
  const [idAt, typeAt] = [fields.indexOf("id"), fields.indexOf("type")];
  const types = snapshot.snapshot.meta.node_types[0];
  let max = 0;
  for (let at = 0; at < snapshot.nodes.length; at += width) if (!OUTSIDE_V8.has(types[snapshot.nodes[at + typeAt]])) max = Math.max(max, snapshot.nodes[at + idAt]);
  return max;
}

const earlierMax = maxId(load(earlierFile));
const later = load(laterFile);
const meta = later.snapshot.meta;
const width = meta.node_fields.length;
const [typeAt, nameAt, idAt, sizeAt, edgeCountAt] = ["type", "name", "id", "self_size", "edge_count"].map((field) => meta.node_fields.indexOf(field));
const edgeWidth = meta.edge_fields.length;
const [edgeTypeAt, edgeNameAt, edgeToAt] = ["type", "name_or_index", "to_node"].map((field) => meta.edge_fields.indexOf(field));
const nodeTypes = meta.node_types[0];
const edgeTypes = meta.edge_types[0];
const nodeCount = later.nodes.length / width;

const label = (node: number) => {
  const type = nodeTypes[later.nodes[node * width + typeAt]];
  const name = later.strings[later.nodes[node * width + nameAt]];
  if (type === "string" || type === "concatenated string" || type === "sliced string") return `(${type})`;
  return `${type}:${name.slice(0, 80)}`;
};

// Retainers: for each node, the nodes with an edge to it (weak edges left out).
const firstEdge = new Uint32Array(nodeCount + 1);
for (let node = 0, edge = 0; node < nodeCount; node++) {
  firstEdge[node] = edge;
  edge += later.nodes[node * width + edgeCountAt] * edgeWidth;
}
firstEdge[nodeCount] = later.edges.length;
const retainerCount = new Uint32Array(nodeCount);
for (let node = 0; node < nodeCount; node++) {
  for (let edge = firstEdge[node]; edge < firstEdge[node + 1]; edge += edgeWidth) {
    if (edgeTypes[later.edges[edge + edgeTypeAt]] === "weak") continue;
    retainerCount[later.edges[edge + edgeToAt] / width]++;
  }
}
const retainerStart = new Uint32Array(nodeCount + 1);
for (let node = 0; node < nodeCount; node++) retainerStart[node + 1] = retainerStart[node] + retainerCount[node];
const retainers = new Uint32Array(retainerStart[nodeCount]);
const retainerEdges = new Uint32Array(retainerStart[nodeCount]);
const filled = new Uint32Array(nodeCount);
for (let node = 0; node < nodeCount; node++) {
  for (let edge = firstEdge[node]; edge < firstEdge[node + 1]; edge += edgeWidth) {
    if (edgeTypes[later.edges[edge + edgeTypeAt]] === "weak") continue;
    const to = later.edges[edge + edgeToAt] / width;
    const slot = retainerStart[to] + filled[to]++;
    retainers[slot] = node;
    retainerEdges[slot] = edge;
  }
}
const edgeLabel = (edge: number) => {
  const type = edgeTypes[later.edges[edge + edgeTypeAt]];
  const name = later.edges[edge + edgeNameAt];
  return type === "element" || type === "hidden" ? `[${name}]` : `.${later.strings[name]}`;
};

const isString = (node: number) => label(node).startsWith("(");

/**
 * One retaining path from the node towards a root (the first retainer each step, avoiding cycles). A chain of
 * concatenated strings (`a + b + c…`, thousands deep) is climbed to its head and shown as one step.
 */
function pathOf(node: number, depth = 12): string {
  const seen = new Set<number>([node]);
  const steps = [label(node)];
  let current = node;
  for (let climbed = 0; isString(current) && climbed < 100_000; climbed++) {
    const slot = retainerStart[current];
    if (slot === retainerStart[current + 1] || !isString(retainers[slot]) || seen.has(retainers[slot])) break;
    current = retainers[slot];
    seen.add(current);
    if (climbed === 0) steps.push("… (string chain)");
  }
  for (let step = 0; step < depth; step++) {
    let next = -1;
    let via = -1;
    for (let slot = retainerStart[current]; slot < retainerStart[current + 1]; slot++) {
      if (!seen.has(retainers[slot])) {
        next = retainers[slot];
        via = retainerEdges[slot];
        break;
      }
    }
    if (next < 0) break;
    seen.add(next);
    steps.push(`${edgeLabel(via)} ← ${label(next)}`);
    current = next;
  }
  return steps.join("  ");
}

const groups = new Map<string, { count: number; bytes: number; samples: number[] }>();
let newCount = 0;
let newBytes = 0;
for (let node = 0; node < nodeCount; node++) {
  if (later.nodes[node * width + idAt] <= earlierMax || OUTSIDE_V8.has(nodeTypes[later.nodes[node * width + typeAt]])) continue;
  const size = later.nodes[node * width + sizeAt];
  newCount++;
  newBytes += size;
  const key = label(node);
  let group = groups.get(key);
  if (!group) groups.set(key, (group = { count: 0, bytes: 0, samples: [] }));
  group.count++;
  group.bytes += size;
  if (group.samples.length < 3 && Math.random() < 0.2) group.samples.push(node);
  else if (group.samples.length === 0) group.samples.push(node);
}
console.log(`objects made between the snapshots and still alive: ${newCount} (${(newBytes / 1024 / 1024).toFixed(2)} MB self size)`);
const sorted = [...groups.entries()].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, top);
for (const [key, group] of sorted) {
  console.log(`\n${(group.bytes / 1024).toFixed(0).padStart(8)} KB ${String(group.count).padStart(7)}  ${key}`);
  for (const sample of group.samples.slice(0, 2)) console.log(`    ${pathOf(sample)}`);
}
