/**
 * A read plan's runner: an object whose values are reads (promises) or plain values, awaited
 * together into the same object of values. Every read is asked when the plan object is built,
 * so the reads of one plan share the block's batch (one aggregate3 per round).
 */
export type Planned<T> = { [K in keyof T]: T[K] | PromiseLike<T[K]> };

export async function allOf<T extends object>(plan: Planned<T>): Promise<T> {
  const keys = Object.keys(plan) as (keyof T)[];
  const values = await Promise.all(keys.map((k) => plan[k]));
  return Object.fromEntries(keys.map((k, i) => [k, values[i]])) as T;
}
