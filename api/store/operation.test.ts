import { describe, expect, it } from "vitest";
import { createRun, OperatorStoreError } from "./operation.js";

const where = { backend: "pglite", schema: "kusd_operator", directory: "/tmp/store" };

describe("createRun", () => {
  it("returns what the operation returns", async () => {
    const run = createRun(where, () => false);
    expect(await run("statements.latest", async () => 42)).toBe(42);
  });

  it("wraps a driver error as OperatorStoreError naming the operation and the store, with the cause", async () => {
    const run = createRun(where, () => false);
    const cause = new Error("connection refused");
    const error = await run("payments.reserve", async () => {
      throw cause;
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OperatorStoreError);
    expect(error).toMatchObject({
      message: "operator store payments.reserve failed",
      code: "operator_store_failed",
      details: { ...where, op: "payments.reserve" },
      cause,
    });
  });

  it("passes an OperatorStoreError of the operation's own through unchanged", async () => {
    const run = createRun(where, () => false);
    const own = new OperatorStoreError("limit must be a number", { limit: "x" });
    await expect(run("statements.list", async () => Promise.reject(own))).rejects.toBe(own);
  });

  it("refuses every operation once the store is closed, without running it", async () => {
    let closed = false;
    let ran = 0;
    const run = createRun(where, () => closed);
    await run("bindings.latest", async () => ran++);
    closed = true;
    await expect(run("bindings.latest", async () => ran++)).rejects.toMatchObject({
      message: "operator store is closed",
      details: { ...where, op: "bindings.latest" },
    });
    expect(ran).toBe(1);
  });
});
