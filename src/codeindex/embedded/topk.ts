/** Keeps the `k` best (score, id) pairs seen; a binary min-heap on score, ties broken by lower id. */
export type TopK = {
  /**
   * Returns the lowest score that can still enter (the k-th best once k are held; ties enter by lower id),
   * so a caller can skip offering anything below it.
   */
  offer(id: number, score: number): number;
  /** Best first. */
  results(): { id: number; score: number }[];
};

export function createTopK(k: number): TopK {
  const ids = new Int32Array(Math.max(1, k));
  const scores = new Float64Array(Math.max(1, k));
  let size = 0;

  // a is "worse" than b: lower score, or equal score and higher id.
  const worse = (i: number, j: number) => scores[i]! < scores[j]! || (scores[i] === scores[j] && ids[i]! > ids[j]!);
  const swap = (i: number, j: number) => {
    const id = ids[i]!;
    ids[i] = ids[j]!;
    ids[j] = id;
    const s = scores[i]!;
    scores[i] = scores[j]!;
    scores[j] = s;
  };
  const siftDown = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < size && worse(l, m)) m = l;
      if (r < size && worse(r, m)) m = r;
      if (m === i) return;
      swap(i, m);
      i = m;
    }
  };

  return {
    offer(id, score) {
      if (k <= 0) return Infinity;
      if (size < k) {
        let i = size++;
        ids[i] = id;
        scores[i] = score;
        while (i > 0) {
          const parent = (i - 1) >> 1;
          if (!worse(i, parent)) break;
          swap(i, parent);
          i = parent;
        }
        return size < k ? -Infinity : scores[0]!;
      }
      if (score < scores[0]! || (score === scores[0] && id > ids[0]!)) return scores[0]!;
      ids[0] = id;
      scores[0] = score;
      siftDown(0);
      return scores[0]!;
    },
    results() {
      const out: { id: number; score: number }[] = [];
      for (let i = 0; i < size; i++) out.push({ id: ids[i]!, score: scores[i]! });
      return out.sort((a, b) => b.score - a.score || a.id - b.id);
    },
  };
}
