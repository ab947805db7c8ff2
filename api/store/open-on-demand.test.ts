import { describe, expect, it, vi } from "vitest";
import { openOnDemand } from "./open-on-demand.js";

describe("openOnDemand", () => {
  it("opens nothing until awaited, then once for every awaiter", async () => {
    const open = vi.fn(async () => ({ name: "store" }));
    const store = openOnDemand(open);
    expect(open).not.toHaveBeenCalled();
    expect(store.begun()).toBeNull();
    const [a, b] = await Promise.all([store.value, store.value.then((s) => s)]);
    expect(a).toBe(b);
    expect(await store.value).toBe(a);
    expect(open).toHaveBeenCalledTimes(1);
    expect(await store.begun()).toBe(a);
  });

  it("hands a failed open to whoever awaits it, through then, catch and finally", async () => {
    const store = openOnDemand(async () => {
      throw new Error("no directory");
    });
    await expect(store.value).rejects.toThrow("no directory");
    expect(await store.value.catch((e: Error) => e.message)).toBe("no directory");
    const done = vi.fn();
    await expect(store.value.finally(done)).rejects.toThrow("no directory");
    expect(done).toHaveBeenCalledOnce();
  });
});
