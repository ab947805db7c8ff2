import { describe, expect, it } from "vitest";
import { abortable, pause } from "./abortable.js";

/** A generator that polls and yields only what `inbox` receives: a quiet subscription, when it stays empty. */
async function* quiet(signal: AbortSignal, polls: { n: number }, inbox: number[] = []) {
  while (!signal.aborted) {
    polls.n++;
    const item = inbox.shift();
    if (item !== undefined) yield item;
    else await pause(5, signal);
  }
}

describe("pause", () => {
  it("resolves at once on an aborted signal, or when it aborts", async () => {
    const controller = new AbortController();
    const started = Date.now();
    const waiting = pause(10_000, controller.signal);
    controller.abort();
    await waiting;
    await pause(10_000, controller.signal);
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});

describe("abortable", () => {
  it("return() while a next() is pending ends both (an async generator alone would wait for a yield)", async () => {
    const polls = { n: 0 };
    const it = abortable((signal) => quiet(signal, polls));
    const pending = it.next();
    await pause(20);
    expect(await it.return()).toEqual({ done: true, value: undefined });
    expect(await pending).toEqual({ done: true, value: undefined });
    const after = polls.n;
    await pause(20);
    expect(polls.n).toBe(after);
  });

  it("stops when the outer signal aborts, also when it was aborted before", async () => {
    const controller = new AbortController();
    const polls = { n: 0 };
    const it = abortable((signal) => quiet(signal, polls), controller.signal);
    const pending = it.next();
    controller.abort();
    expect(await pending).toEqual({ done: true, value: undefined });
    const late = abortable((signal) => quiet(signal, polls), controller.signal);
    expect(await late.next()).toEqual({ done: true, value: undefined });
  });

  it("throw() stops the source and rethrows", async () => {
    const polls = { n: 0 };
    const it = abortable((signal) => quiet(signal, polls));
    const pending = it.next();
    await expect(it.throw(new Error("client gone"))).rejects.toThrow("client gone");
    expect(await pending).toEqual({ done: true, value: undefined });
  });

  it("passes items through and is its own iterator", async () => {
    const it = abortable(async function* () {
      yield 1;
      yield 2;
    });
    const seen: number[] = [];
    for await (const n of it) seen.push(n);
    expect(seen).toEqual([1, 2]);
    expect(it[Symbol.asyncIterator]()).toBe(it);
  });
});
