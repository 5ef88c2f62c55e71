// Reader for ICTV's database export `taxonomy_<year>.json`: one nested tree per release.
// The export was made for a tree browser, so besides the real taxa it carries display scaffolding
// that must not become taxa: a "legend" chain, "Unassigned" placeholder nodes standing in for a
// missing rank, and a second copy of the root among the root's children.
import { readFileSync } from 'node:fs';
import { type Rank, RANKS } from '../../src/shared/ranks.js';
import { InputError, type Lineage, type TreeExport, type TreeNode, type TreeShortfall } from './types.js';

/**
 * Words the root's `child_counts` uses for each rank. ICTV's `taxonomy_level` table
 * (cross_release/taxonomy_level.utf8.txt, column `plural`) is the source; it is a fixed vocabulary,
 * so it is written out here rather than read at build time. Singulars appear when a count is 1
 * ("1 phylum"), and "species" is both.
 */
const RANK_WORDS: ReadonlyMap<string, Rank> = new Map<string, Rank>([
  ['realms', 'realm'], ['subrealms', 'subrealm'], ['kingdoms', 'kingdom'], ['subkingdoms', 'subkingdom'],
  ['phyla', 'phylum'], ['subphyla', 'subphylum'], ['classes', 'class'], ['subclasses', 'subclass'],
  ['orders', 'order'], ['suborders', 'suborder'], ['families', 'family'], ['subfamilies', 'subfamily'],
  ['genera', 'genus'], ['subgenera', 'subgenus'], ['species', 'species'],
  ...RANKS.map((rank) => [rank, rank] as [string, Rank]),
]);

const RANK_INDEX: ReadonlyMap<string, number> = new Map(RANKS.map((rank, i) => [rank, i]));

/** The fields of an export node this reader relies on; everything else (has_species, rankIndex, ...) is display data. */
interface RawNode {
  taxNodeID?: unknown;
  parentTaxNodeID?: unknown;
  rankName?: unknown;
  name?: unknown;
  child_counts?: unknown;
  children?: unknown;
}

/** Parses e.g. "1 phylum, 2 subphyla, 6 classes, 4958 species"; an unknown rank word is an error, not a skip, so counts never go silently missing. */
export function parseChildCounts(text: string, file: string): Partial<Record<Rank, number>> {
  const counts: Partial<Record<Rank, number>> = {};
  for (const part of text.split(',')) {
    const m = /^(\d+) +(\S+)$/.exec(part.trim());
    const rank = m ? RANK_WORDS.get(m[2].toLowerCase()) : undefined;
    if (!m || rank === undefined) {
      throw new InputError(`root child_counts "${text}": cannot read "${part.trim()}" as "<count> <rank>"`, file);
    }
    if (counts[rank] !== undefined) {
      throw new InputError(`root child_counts "${text}": ${rank} is counted twice`, file);
    }
    counts[rank] = Number(m[1]);
  }
  return counts;
}

function emptyLineage(): Lineage {
  return Object.fromEntries(RANKS.map((rank) => [rank, null])) as Lineage;
}

function nodeLabel(node: RawNode): string {
  return `node ${JSON.stringify(node.taxNodeID)} '${String(node.name)}'`;
}

function childrenOf(node: RawNode, file: string): RawNode[] {
  if (node.children === null || node.children === undefined) return [];
  if (!Array.isArray(node.children)) throw new InputError(`${nodeLabel(node)}: children is not an array`, file);
  return node.children as RawNode[];
}

/** Frame of the depth-first walk: where a node hangs in the real tree, ignoring the placeholders above it. */
interface Frame {
  node: RawNode;
  parentId: number;
  parentRankIndex: number;
  lineage: Lineage;
  isRootChild: boolean;
}

export function readTreeExport(path: string): TreeExport {
  let root: RawNode;
  try {
    root = JSON.parse(readFileSync(path, 'utf8')) as RawNode;
  } catch (e) {
    if (e instanceof SyntaxError) throw new InputError(`not valid JSON: ${e.message}`, path);
    throw e;
  }
  if (root === null || typeof root !== 'object' || root.rankName !== 'tree' || !Number.isSafeInteger(root.taxNodeID)) {
    throw new InputError('the top-level value is not a root node (rankName "tree" with a numeric taxNodeID)', path);
  }
  if (typeof root.child_counts !== 'string') {
    throw new InputError('the root node has no child_counts string (the official counts)', path);
  }
  const rootId = root.taxNodeID as number;
  const officialCounts = parseChildCounts(root.child_counts, path);

  const nodes: TreeNode[] = [];
  const warnings: string[] = [];
  // Each real node's own child_counts, to find where the export holds fewer taxa than it declares.
  const declared = new Map<number, Partial<Record<Rank, number>>>([[rootId, officialCounts]]);
  const seenIds = new Set<number>([rootId]);
  const namesByRank = new Map<string, number[]>();

  // Explicit stack (children pushed in reverse) keeps document order without recursion depth limits.
  const stack: Frame[] = childrenOf(root, path).map((node) => (
    { node, parentId: rootId, parentRankIndex: -1, lineage: emptyLineage(), isRootChild: true }
  )).reverse();
  while (stack.length > 0) {
    const { node, parentId, parentRankIndex, lineage, isRootChild } = stack.pop()!;
    const children = childrenOf(node, path);
    const push = (next: Omit<Frame, 'node'>) => {
      for (let i = children.length - 1; i >= 0; i--) stack.push({ node: children[i], ...next });
    };

    // The export repeats the root as its own first child, without children; it is not a taxon.
    if (isRootChild && node.rankName === 'tree' && children.length === 0) continue;

    // "legend" (the browser's key) and null ("Unassigned": no taxon at this rank) are not taxa,
    // but an Unassigned node does hold real taxa below it, which belong to the node above it.
    if (node.taxNodeID === 'legend' || node.taxNodeID === null) {
      if (node.taxNodeID === null && node.name !== 'Unassigned') {
        warnings.push(`placeholder ${nodeLabel(node)} (rank ${String(node.rankName)}) has no taxNodeID but is not named 'Unassigned'; skipped`);
      }
      push({ parentId, parentRankIndex, lineage, isRootChild: false });
      continue;
    }

    if (!Number.isSafeInteger(node.taxNodeID)) {
      throw new InputError(`${nodeLabel(node)}: taxNodeID is neither a number, "legend" nor null`, path);
    }
    const id = node.taxNodeID as number;
    const rankIndex = RANK_INDEX.get(String(node.rankName));
    if (rankIndex === undefined) {
      throw new InputError(`${nodeLabel(node)}: rankName ${JSON.stringify(node.rankName)} is not one of the ICTV ranks`, path);
    }
    const rank = RANKS[rankIndex];
    // A node at or above its parent's rank would overwrite the parent in the lineage.
    if (rankIndex <= parentRankIndex) {
      throw new InputError(`${nodeLabel(node)}: rank ${rank} is not below its parent's rank ${RANKS[parentRankIndex]}`, path);
    }
    if (typeof node.name !== 'string' || node.name.trim() === '') {
      throw new InputError(`${nodeLabel(node)}: name is missing or empty`, path);
    }
    if (seenIds.has(id)) throw new InputError(`${nodeLabel(node)}: taxNodeID ${id} occurs twice`, path);
    seenIds.add(id);

    const name = node.name.trim();
    if (name !== node.name) warnings.push(`${rank} ${nodeLabel(node)}: leading/trailing whitespace trimmed from ${JSON.stringify(node.name)}`);
    // Inner oddities are kept (they are part of the name as ICTV stored it) but reported.
    if (/\s\s|[^\S ]/.test(name)) warnings.push(`${rank} ${nodeLabel(node)}: unusual whitespace inside the name ${JSON.stringify(name)}`);
    // A mismatch means the nesting and the declared parent disagree; the nesting is what the lineage follows.
    if (node.parentTaxNodeID !== parentId) {
      warnings.push(`${rank} ${nodeLabel(node)}: parentTaxNodeID ${JSON.stringify(node.parentTaxNodeID)} but nested under ${parentId}; using ${parentId}`);
    }

    const own: Lineage = { ...lineage, [rank]: name };
    nodes.push({ taxnodeId: id, parentTaxnodeId: parentId, rank, name, lineage: own });
    if (typeof node.child_counts === 'string' && node.child_counts.trim() !== '') {
      try {
        declared.set(id, parseChildCounts(node.child_counts, path));
      } catch (e) {
        warnings.push(`${rank} ${nodeLabel(node)}: ${(e as Error).message.slice(path.length + 2)}; its count is not checked`);
      }
    }
    const key = `${rank}\t${name}`;
    namesByRank.set(key, [...(namesByRank.get(key) ?? []), id]);
    push({ parentId: id, parentRankIndex: rankIndex, lineage: own, isRootChild: false });
  }

  for (const [key, ids] of namesByRank) {
    if (ids.length > 1) {
      const [rank, name] = key.split('\t');
      warnings.push(`${rank} name '${name}' occurs ${ids.length} times (taxNodeIDs ${ids.join(', ')})`);
    }
  }
  // Where the nodes disagree with the export's own totals is reported as shortfalls (below), which the
  // build weighs against ICTV's official counts.
  return { file: path, rootTaxnodeId: rootId, officialCounts, nodes, warnings, shortfalls: shortfalls(rootId, nodes, declared) };
}

/**
 * Where the export holds fewer (or more) taxa of a rank below a node than the node's own child_counts
 * declares, attributed to the deepest node that declares it: a genus without species that the export
 * omits shows as a shortfall of one genus at its family, not again at every ancestor up to the root.
 */
function shortfalls(rootId: number, nodes: TreeNode[], declared: ReadonlyMap<number, Partial<Record<Rank, number>>>): TreeShortfall[] {
  const parent = new Map<number, number>(nodes.map((n) => [n.taxnodeId, n.parentTaxnodeId]));
  const byId = new Map<number, TreeNode>(nodes.map((n) => [n.taxnodeId, n]));
  const found = new Map<number, Map<Rank, number>>();
  for (const n of nodes) {
    for (let up = parent.get(n.taxnodeId); up !== undefined; up = up === rootId ? undefined : parent.get(up)) {
      const counts = found.get(up) ?? new Map<Rank, number>();
      counts.set(n.rank, (counts.get(n.rank) ?? 0) + 1);
      found.set(up, counts);
    }
  }
  const gap = (id: number, rank: Rank) => {
    const d = declared.get(id)?.[rank];
    return d === undefined ? 0 : d - (found.get(id)?.get(rank) ?? 0);
  };
  // The gap a node's declared children already account for.
  const childGap = new Map<string, number>();
  for (const n of nodes) {
    if (!declared.has(n.taxnodeId)) continue;
    for (const rank of RANKS) {
      const key = `${n.parentTaxnodeId}\t${rank}`;
      childGap.set(key, (childGap.get(key) ?? 0) + gap(n.taxnodeId, rank));
    }
  }
  const out: TreeShortfall[] = [];
  for (const id of declared.keys()) {
    for (const rank of RANKS) {
      const own = gap(id, rank) - (childGap.get(`${id}\t${rank}`) ?? 0);
      if (own === 0) continue;
      const n = byId.get(id);
      out.push({
        taxnodeId: id, taxonRank: n?.rank ?? null, taxon: n?.name ?? null, rank,
        declared: declared.get(id)?.[rank] ?? 0, found: found.get(id)?.get(rank) ?? 0, missing: own,
      });
    }
  }
  return out;
}
