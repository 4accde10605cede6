// A row read against a peer takes its verdict from several rounds, not one: the peers' own figures
// move from one measurement to the next by more than the targets' margins (DBOS's continued runs
// per second measured 231, 359 and 501 in three whole bench runs), so one round's ratio could pass
// or fail by the peer's noise alone.
import { measurePeers, type PeerResults } from "./peers";
import { type BenchRow, median } from "./result";

/** How many rounds a benchmark read against the peers runs. */
export const PEER_ROUNDS = 3;

/** The ratio a row reads as (`0.98 ×` is 0.98), or NaN when it has none. */
function ratioOf(row: BenchRow): number {
  return Number.parseFloat(row.ratio);
}

/**
 * Of several rounds' rows, the round whose row `by` has the median ratio, that row's metric naming
 * every round's ratio. Each row published comes whole from one round: its figure and its
 * baseline were measured side by side.
 */
export function medianRound(rounds: readonly BenchRow[][], by: string): BenchRow[] {
  const ratios = rounds.map((rows) => {
    const row = rows.find((each) => each.id === by);
    return row ? ratioOf(row) : Number.NaN;
  });
  if (rounds.length === 0 || ratios.some(Number.isNaN)) {
    throw new Error(`every round must write ${by} with a ratio; got ${ratios.join(", ")}`);
  }
  const chosen = ratios.indexOf(median(ratios));
  const all = ratios.map((ratio) => `${ratio}`).join(", ");
  return (rounds[chosen] as BenchRow[]).map((row) =>
    row.id === by
      ? { ...row, metric: `${row.metric}; the median of ${rounds.length} rounds (ratios ${all})` }
      : { ...row, metric: `${row.metric}; from the same round as ${by}` },
  );
}

/**
 * Runs `run` {@link PEER_ROUNDS} times, the peers measured afresh in each round: after ours in the
 * odd rounds (`run` asks for them once its own figures are taken) and before ours in the even
 * ones, so a machine that speeds up or slows down over the rounds favours neither side. Keeps the
 * median round by row `by` ({@link medianRound}).
 */
export async function inPeerRounds(
  by: string,
  run: (peers: () => Promise<PeerResults>) => Promise<BenchRow[]>,
): Promise<BenchRow[]> {
  const rounds: BenchRow[][] = [];
  for (let round = 1; round <= PEER_ROUNDS; round++) {
    if (round % 2 === 0) {
      const theirs = await measurePeers();
      rounds.push(await run(async () => theirs));
    } else {
      let theirs: Promise<PeerResults> | undefined;
      rounds.push(await run(() => (theirs ??= measurePeers())));
    }
  }
  return medianRound(rounds, by);
}
