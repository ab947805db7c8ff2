import { keccak256, stringToHex } from "viem";
import { describe, expect, it, vi } from "vitest";
import { BackgroundTasks } from "./background.js";
import { standaloneApp } from "./standalone-app.js";

describe("an app's background tasks", () => {
  it("the paid gateway's recovery sweep is stopped by the app's close: no timer is left", async () => {
    vi.useFakeTimers();
    try {
      const before = vi.getTimerCount();
      const background = new BackgroundTasks();
      standaloneApp({
        background,
        env: {
          KUSD_PAYMENT_RECIPIENT: "0x1111111111111111111111111111111111111111",
          KUSD_FACILITATOR_PRIVATE_KEY: keccak256(stringToHex("kusd:tests:unused-facilitator")),
        },
      });
      await vi.advanceTimersByTimeAsync(0); // background work starts once ready: here at once
      expect(vi.getTimerCount()).toBeGreaterThan(before); // the sweep's interval
      await background.stopAll();
      expect(vi.getTimerCount()).toBe(before);
    } finally {
      vi.useRealTimers();
    }
  });

  it("stops the last started first, each once", async () => {
    const stopped: string[] = [];
    const tasks = new BackgroundTasks();
    tasks.add(() => void stopped.push("a"));
    tasks.add(async () => void stopped.push("b"));
    await tasks.stopAll();
    await tasks.stopAll();
    expect(stopped).toEqual(["b", "a"]);
  });

  it("starts a task only once ready, and none that stopAll cancelled first", async () => {
    let ready!: () => void;
    const tasks = new BackgroundTasks(new Promise<void>((r) => (ready = r)));
    const events: string[] = [];
    tasks.start(() => {
      events.push("started");
      return () => void events.push("stopped");
    });
    await Promise.resolve();
    expect(events).toEqual([]);
    ready();
    await new Promise((r) => setImmediate(r));
    expect(events).toEqual(["started"]);
    await tasks.stopAll();
    expect(events).toEqual(["started", "stopped"]);

    const never = new BackgroundTasks(new Promise<void>((r) => (ready = r)));
    const task = vi.fn(() => () => {});
    never.start(task);
    await never.stopAll();
    ready();
    await new Promise((r) => setImmediate(r));
    expect(task).not.toHaveBeenCalled();
  });
});
