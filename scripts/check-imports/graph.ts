/** A directed graph as adjacency sets. */
export type Graph = Map<string, Set<string>>;

/**
 * The circles of a graph: its strongly connected components of more than one node (or a node that
 * points at itself), each given as one cycle through the component, smallest name first (Tarjan).
 */
export function findCircles(graph: Graph): string[][] {
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string) => {
    indexOf.set(node, index);
    low.set(node, index++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indexOf.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, indexOf.get(next)!));
    }
    if (low.get(node) === indexOf.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || graph.get(node)?.has(node)) components.push(component);
    }
  };
  for (const node of [...graph.keys()].sort()) if (!indexOf.has(node)) visit(node);
  return components.flatMap((c) => cyclesThrough(graph, new Set(c))).sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** Cycles covering a strongly connected component: a shortest one through each member not yet covered. */
function cyclesThrough(graph: Graph, members: Set<string>): string[][] {
  const cycles: string[][] = [];
  const covered = new Set<string>();
  for (const node of [...members].sort()) {
    if (covered.has(node)) continue;
    const cycle = cycleFrom(graph, members, node);
    for (const n of cycle) covered.add(n);
    cycles.push(cycle);
  }
  return cycles;
}

/** A shortest cycle inside a strongly connected component from one of its nodes (breadth-first back to it). */
function cycleFrom(graph: Graph, members: Set<string>, start: string): string[] {
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const next of graph.get(node) ?? []) {
      if (!members.has(next)) continue;
      if (next === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(previous.get(path[0]!)!);
        return path;
      }
      if (!previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  return [start];
}
