import { describe, expect, it } from "vitest";
import {
  currentReaderScope,
  inReaderRequest,
  noteRefusal,
  observeRefusals,
  outsideReaderRequests,
  readerRefusal,
  registerRefusal,
  shareRefusals,
} from "./reader-scope.js";

const refusal = () => registerRefusal(new Error("the readers' budget is spent"));
/** How a viem client hands a transport's error back: wrapped, the refusal as a cause. */
const wrapped = (cause: Error) =>
  new Error("HTTP request failed", { cause: new Error("unknown RPC error", { cause }) });

/** A cache's keeper as the reports' caches are (one build per key in flight, every caller waits for it). */
function inFlightKeeper<V>() {
  const running = new Map<string, Promise<V>>();
  const keeper = (key: string, build: () => Promise<V>) => {
    const known = running.get(key);
    if (known) return known;
    const started = build().finally(() => running.delete(key));
    running.set(key, started);
    return started;
  };
  return Object.defineProperty(keeper, "size", { get: () => running.size }) as typeof keeper & { size: number };
}

describe("a refusal marks the reader requests it reaches", () => {
  it("recognises the budget's refusal through the errors a client wraps it in, and nothing else", () => {
    const r = refusal();
    expect(readerRefusal(wrapped(r))).toBe(r);
    expect(readerRefusal(wrapped(new Error("HTTP 500")))).toBeNull();
    expect(readerRefusal("not an error")).toBeNull();
  });

  it("a client's multicall slot or rejected action marks the caller's own request, not another's", async () => {
    const r = refusal();
    const client = observeRefusals({
      multicall: async () => [
        { status: "success", result: 1n },
        { status: "failure", error: wrapped(r) },
      ],
      getBlock: async () => {
        throw wrapped(r);
      },
      chainId: 8453,
    });
    const first = await inReaderRequest(async () => {
      expect((await client.multicall())[1]).toMatchObject({ status: "failure" });
    });
    const second = await inReaderRequest(async () => {
      await client.getBlock().catch(() => null);
    });
    const other = await inReaderRequest(async () => {
      expect(client.chainId).toBe(8453);
    });
    expect(first.refusal).toBe(r);
    expect(second.refusal).toBe(r);
    expect(other.refusal).toBeNull();
  });

  it("a shared build that met a refusal fails for its starter and every request that waited for it, and is not kept", async () => {
    const caches = shareRefusals({ reports: { snapshots: inFlightKeeper<string>() }, ttlMs: 5 });
    const r = refusal();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let builds = 0;
    // The build tolerates a failed read (a report's null figure) and would resolve degraded.
    const build = async () => {
      builds++;
      await gate;
      noteRefusal(r);
      return "report with a null figure";
    };
    const starter = inReaderRequest(() => caches.reports.snapshots("block 7", build).catch(() => "refused"));
    const joiner = inReaderRequest(() => caches.reports.snapshots("block 7", build).catch(() => "refused"));
    release();
    const [a, b] = await Promise.all([starter, joiner]);
    expect(builds).toBe(1);
    expect(a.refusal).toBe(r);
    expect(b.refusal).toBe(r);
    expect(caches.reports.snapshots.size).toBe(0);
    expect(caches.ttlMs).toBe(5);
    // The next request builds again, and without a refusal is served.
    const again = await inReaderRequest(async () => {
      expect(await caches.reports.snapshots("block 7", async () => "report")).toBe("report");
    });
    expect(again.refusal).toBeNull();
  });

  it("a caller that does not wait for a refused build leaves no unhandled rejection", async () => {
    const caches = shareRefusals({ k: inFlightKeeper<number>() });
    const r = refusal();
    let unhandled = 0;
    const count = () => unhandled++;
    process.on("unhandledRejection", count);
    try {
      await inReaderRequest(async () => {
        void caches.k("x", async () => {
          noteRefusal(r);
          return 1;
        });
        await new Promise((resolve) => setTimeout(resolve, 10));
      });
    } finally {
      process.off("unhandledRejection", count);
    }
    expect(unhandled).toBe(0);
  });

  it("the operator's builds run outside any reader request, even when a reader's request starts them", async () => {
    const caches = outsideReaderRequests({ k: inFlightKeeper<boolean>() });
    let inside: boolean | null = null;
    const scope = await inReaderRequest(async () => {
      expect(currentReaderScope()).toBeDefined();
      await caches.k("head", async () => {
        inside = currentReaderScope() !== undefined;
        return true;
      });
    });
    expect(inside).toBe(false);
    expect(scope.refusal).toBeNull();
  });
});
