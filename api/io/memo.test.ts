import { describe, expect, it } from "vitest";
import { coalesce, memo, perObject } from "./memo.js";

const deferred = <T>() => {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
};

describe("coalesce", () => {
  it("concurrent callers of one key share one build; the next caller builds again", async () => {
    const shared = coalesce<number>();
    let builds = 0;
    const gate = deferred<number>();
    const build = () => {
      builds++;
      return gate.promise;
    };
    const together = [shared("a", build), shared("a", build), shared("a", build)];
    expect(builds).toBe(1);
    gate.resolve(7);
    expect(await Promise.all(together)).toEqual([7, 7, 7]);
    expect(
      await shared("a", async () => {
        builds++;
        return 8;
      }),
    ).toBe(8);
    expect(builds).toBe(2);
  });

  it("a failure reaches every waiter and is not kept", async () => {
    const shared = coalesce<number>();
    const gate = deferred<number>();
    const both = [shared("k", () => gate.promise), shared("k", () => gate.promise)];
    gate.reject(new Error("rpc down"));
    for (const p of both) await expect(p).rejects.toThrow("rpc down");
    expect(await shared("k", async () => 1)).toBe(1);
  });
});

describe("memo", () => {
  it("builds once per key, keeps the result, and evicts the least recently used past max", async () => {
    const m = memo<string>({ max: 2 });
    let builds = 0;
    const build = (v: string) => async () => {
      builds++;
      return v;
    };
    expect(await Promise.all([m("1", build("one")), m("1", build("x"))])).toEqual(["one", "one"]);
    await m("2", build("two"));
    await m("1", build("x")); // touch 1: 2 is now the oldest
    await m("3", build("three"));
    expect(builds).toBe(3);
    expect(await m("2", build("two again"))).toBe("two again");
    expect(m.size).toBe(2);
  });

  it("does not keep a failed build, nor a result keep refuses", async () => {
    const m = memo<{ complete: boolean }>({ max: 8, keep: (v) => v.complete });
    await expect(m("a", async () => Promise.reject(new Error("no")))).rejects.toThrow("no");
    expect(await m("a", async () => ({ complete: false }))).toEqual({ complete: false });
    await Promise.resolve();
    expect(await m("a", async () => ({ complete: true }))).toEqual({ complete: true });
    expect(await m("a", async () => ({ complete: false }))).toEqual({ complete: true });
  });

  it("forgets after ttlMs when given", async () => {
    const m = memo<number>({ max: 8, ttlMs: 20 });
    await m("k", async () => 1);
    expect(await m("k", async () => 2)).toBe(1);
    await new Promise((r) => setTimeout(r, 40));
    expect(await m("k", async () => 3)).toBe(3);
  });
});

describe("memo bounded by bytes", () => {
  const text = (n: number) => "x".repeat(n);
  it("weighs each settled result and evicts the least recently used past maxBytes", async () => {
    const m = memo<string>({ maxBytes: 100, sizeOf: (v) => v.length });
    await m("a", async () => text(40));
    await m("b", async () => text(40));
    await Promise.resolve();
    expect(m.sizeAs("t")).toEqual({ cache: "t", unit: "bytes", limit: 100, entries: 2, bytes: 80 });
    await m("c", async () => text(40)); // 120 > 100: a, the oldest, goes
    await Promise.resolve();
    expect(m.sizeAs("t")).toMatchObject({ entries: 2, bytes: 80 });
    let rebuilt = false;
    await m("a", async () => {
      rebuilt = true;
      return text(1);
    });
    expect(rebuilt).toBe(true);
  });

  it("does not keep a result larger than the whole budget, and shares it while in flight", async () => {
    const m = memo<string>({ maxBytes: 100, sizeOf: (v) => v.length });
    let builds = 0;
    const big = async () => {
      builds++;
      return text(500);
    };
    const [x, y] = await Promise.all([m("big", big), m("big", big)]);
    expect(x).toBe(y);
    expect(builds).toBe(1);
    await Promise.resolve();
    expect(m.sizeAs("t")).toMatchObject({ entries: 0, bytes: 0 });
  });

  it("an entry-bounded memo says its limit in entries, its bytes unmeasured", async () => {
    const m = memo<number>({ max: 3 });
    await m("1", async () => 1);
    expect(m.sizeAs("n")).toEqual({ cache: "n", unit: "entries", limit: 3, entries: 1, bytes: null });
  });
});

describe("perObject", () => {
  it("makes one value per object, on first use", () => {
    let made = 0;
    const of = perObject((o: { n: number }) => ({ n: o.n, made: ++made }));
    const a = { n: 1 };
    const b = { n: 2 };
    expect(of(a)).toBe(of(a));
    expect(of(b)).toEqual({ n: 2, made: 2 });
    expect(made).toBe(2);
  });
});
