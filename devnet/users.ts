/**
 * Ordinary user activity: a seeded plan of mints, stakes, share transfers and unstakes by many
 * distinct users, spread over the history. `scale` multiplies the number of users; each user
 * behaves the same at any scale, so event counts grow linearly.
 */
import { createRng } from "./rng.js";
import { DAY } from "./timeline.js";

export const USERS_PER_SCALE = 24;

export type UserAction =
  | { kind: "mint"; user: number; usdc: bigint }
  | { kind: "stake"; user: number; fraction: number }
  | { kind: "transferShares"; user: number; to: number; fraction: number }
  | { kind: "transferKUSD"; user: number; to: number; fraction: number }
  | { kind: "unstake"; user: number; fraction: number };

export type ActivityDay = { day: number; at: number; actions: UserAction[] };

/** Plans user activity on days in [from, to) (unix seconds, whole days). */
export function planUserActivity(scale: number, from: number, to: number, seed = 20260514): ActivityDay[] {
  const rng = createRng(seed);
  const days = Math.floor((to - from) / DAY);
  const users = Math.max(1, Math.round(scale * USERS_PER_SCALE));
  const byDay = new Map<number, UserAction[]>();
  const push = (day: number, action: UserAction) => {
    if (day < 0 || day >= days) return;
    const list = byDay.get(day) ?? [];
    list.push(action);
    byDay.set(day, list);
  };
  for (let user = 0; user < users; user++) {
    const join = Math.floor(rng() * Math.max(1, days - 3));
    const usdc = BigInt(Math.round(500 + rng() ** 2 * 49_500)) * 1_000_000n;
    push(join, { kind: "mint", user, usdc });
    if (rng() < 0.75) push(join + 1, { kind: "stake", user, fraction: 0.5 + rng() * 0.5 });
    const peer = Math.floor(rng() * users);
    if (peer !== user && rng() < 0.3)
      push(join + 2, { kind: "transferShares", user, to: peer, fraction: 0.1 + rng() * 0.4 });
    if (peer !== user && rng() < 0.2)
      push(join + 2, { kind: "transferKUSD", user, to: peer, fraction: 0.2 + rng() * 0.3 });
    if (rng() < 0.3) push(join + 3 + Math.floor(rng() * 20), { kind: "unstake", user, fraction: 0.3 + rng() * 0.7 });
  }
  return [...byDay.entries()]
    .sort(([a], [b]) => a - b)
    .map(([day, actions]) => ({ day, at: from + day * DAY + 14 * 3600, actions }));
}
