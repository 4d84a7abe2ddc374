/**
 * Rank intervals and groups from the pairs' relation (docs/rank.md "Rank intervals and groups").
 * `above[i * K + j]` is 1 when model i is ordered above model j. `order` is the models in score
 * order (best first). A model's rank lies in [1 + #models above it, K − #models below it]. A cut
 * falls between positions p and p + 1 of the score order exactly when every model in the top p is
 * ordered above every model after it; the blocks between cuts are the groups (separated from each
 * other; pairs inside a group may be ordered too, so a group is not a tie).
 */

export interface RankOrder {
  /** Per model (by index): its rank interval and its group (1 = top). */
  readonly rankLow: Uint32Array;
  readonly rankHigh: Uint32Array;
  readonly group: Uint32Array;
  /** The groups in order, each the model indices in score order. */
  readonly groups: number[][];
}

export function rankOrder(k: number, above: Uint8Array, order: readonly number[]): RankOrder {
  const rankLow = new Uint32Array(k);
  const rankHigh = new Uint32Array(k);
  for (let i = 0; i < k; i++) {
    let over = 0;
    let under = 0;
    for (let j = 0; j < k; j++) {
      if (above[j * k + i] === 1) over++;
      if (above[i * k + j] === 1) under++;
    }
    rankLow[i] = 1 + over;
    rankHigh[i] = k - under;
  }
  // below[p]: how many (top-p model, later model) pairs are ordered, counted incrementally: the cut
  // after p holds when it equals p · (k − p).
  const group = new Uint32Array(k);
  const groups: number[][] = [];
  let block: number[] = [];
  let orderedAcross = 0;
  for (let p = 0; p < k; p++) {
    const i = order[p] as number;
    // Moving model i from below the cut to above it: its pairs with the top lose, with the rest gain.
    for (let q = 0; q < p; q++) orderedAcross -= above[(order[q] as number) * k + i] as number;
    for (let q = p + 1; q < k; q++) orderedAcross += above[i * k + (order[q] as number)] as number;
    block.push(i);
    const top = p + 1;
    if (top === k || orderedAcross === top * (k - top)) {
      for (const j of block) group[j] = groups.length + 1;
      groups.push(block);
      block = [];
    }
  }
  return { rankLow, rankHigh, group, groups };
}
