/**
 * The monitor's risk kinds (`--risk-triggers`): a trigger of GET /api/risk-status leaving its
 * safe state (kind `trigger`) and a new gap (kind `gap`), read at the confirmed head on every
 * poll. An alert names the block it changed at (`changedAtBlock`), found by bisecting the
 * blocks since the previous poll, so the setter's transaction is in that block. When one ends,
 * the status at the block where it was first seen is read again: if it is no longer there, a
 * reorg undid it (`retraction`); otherwise it ended later (`resolved`). What is already out of
 * its safe state when the monitor first starts is its baseline, not news.
 */
import type { MonitorMessage } from "./deliver.js";

export type RiskItem = { kind: "trigger" | "gap"; key: string; detail: Record<string, unknown> };
export type RiskSeen = { observedAtBlock: number; alerted: boolean; item: RiskItem };
export type RiskState = Record<string, RiskSeen>;

type RiskStatusBody = {
  blockNumber: number;
  triggers: { onChain: { id: string; safe: boolean | null }[]; offChain: { id: string; safe: boolean | null }[] };
  gaps: { id: string }[];
};

/** What is out of its safe state in one status: unsafe triggers and gaps, by key. */
export function riskItems(status: RiskStatusBody): Map<string, RiskItem> {
  const items = new Map<string, RiskItem>();
  // Off-chain triggers (venue, statement age) are wall-clock conditions with kinds of their own.
  for (const t of status.triggers.onChain)
    if (t.safe === false)
      items.set(`trigger:${t.id}`, { kind: "trigger", key: t.id, detail: t as Record<string, unknown> });
  for (const g of status.gaps)
    items.set(`gap:${g.id}`, { kind: "gap", key: g.id, detail: g as Record<string, unknown> });
  return items;
}

export type RiskStep = { next: RiskState; messages: MonitorMessage[] };

/**
 * The first block after `absentAt` where `key` is out of its safe state, given that it is at
 * `presentAt`: about log2(presentAt − absentAt) reads. If it changed back and forth in between,
 * this is one of the blocks where it changed into it.
 */
export async function changedAt(
  key: string,
  absentAt: number,
  presentAt: number,
  statusAt: (block: number) => Promise<RiskStatusBody>,
): Promise<number> {
  let [lo, hi] = [absentAt, presentAt];
  while (hi - lo > 1) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if (riskItems(await statusAt(mid)).has(key)) hi = mid;
    else lo = mid;
  }
  return hi;
}

/**
 * One poll. `recheck(block)` reads the status at an earlier block (to date a change since the
 * previous poll at `previousBlock`, and for what ended inside the reorg window); `finalBlock` is
 * the newest block older than the window.
 */
export async function stepRisk(
  prev: RiskState | undefined,
  now: RiskStatusBody,
  finalBlock: number,
  recheck: (block: number) => Promise<RiskStatusBody>,
  previousBlock: number | null = null,
): Promise<RiskStep> {
  const seen = riskItems(now);
  const block = now.blockNumber;
  if (prev === undefined) {
    return {
      next: Object.fromEntries([...seen].map(([k, item]) => [k, { observedAtBlock: block, alerted: false, item }])),
      messages: [],
    };
  }
  const next: RiskState = { ...prev };
  const messages: MonitorMessage[] = [];
  for (const [k, item] of seen) {
    if (next[k]) continue;
    next[k] = { observedAtBlock: block, alerted: true, item };
    // Unknown (null) without a previous poll to bound it, e.g. after a state file from an older version.
    const changedAtBlock =
      previousBlock !== null && previousBlock < block ? await changedAt(k, previousBlock, block, recheck) : null;
    messages.push({
      type: "alert",
      kind: item.kind,
      id: `${item.key}@${block}`,
      blockNumber: block,
      observedAtBlock: block,
      changedAtBlock,
      [item.kind]: item.detail,
    });
  }
  for (const [k, s] of Object.entries(prev)) {
    if (seen.has(k)) continue;
    delete next[k];
    if (!s.alerted) continue;
    const id = `${s.item.key}@${s.observedAtBlock}`;
    // Inside the reorg window: was it ever there? Past it, the block is final and it ended later.
    const undone = s.observedAtBlock > finalBlock && !riskItems(await recheck(s.observedAtBlock)).has(k);
    messages.push(
      undone
        ? {
            type: "retraction",
            kind: s.item.kind,
            id,
            blockNumber: s.observedAtBlock,
            reason: "no longer in the indexed chain: removed by a reorganisation",
            retracted: s.item.detail,
          }
        : { type: "resolved", kind: s.item.kind, id, blockNumber: block, observedAtBlock: s.observedAtBlock },
    );
  }
  return { next, messages };
}
