/**
 * GraphQL subscriptions read the way clients read them: server-sent events (a POST with
 * `Accept: text/event-stream`) and WebSocket (the graphql-ws client over the `ws` package). Each
 * subscription collects its payloads, and a test waits for the one it expects.
 */
import { createClient } from "graphql-ws";
import WebSocket from "ws";

type Payload = { data?: Record<string, unknown> | null; errors?: { message: string; extensions?: unknown }[] };

/** The payloads of one subscription, as they arrive. */
export class Collected<T = any> {
  readonly items: T[] = [];
  errors: unknown[] = [];
  private waiters = new Set<() => void>();

  push(payload: Payload, field: string) {
    if (payload.errors?.length) this.errors.push(...payload.errors);
    else this.items.push(payload.data?.[field] as T);
    for (const w of this.waiters) w();
  }

  fail(error: unknown) {
    this.errors.push(error);
    for (const w of this.waiters) w();
  }

  /** The first item that satisfies `match`, waiting up to `timeoutMs` for it. */
  waitFor(match: (item: T) => boolean, label: string, timeoutMs = 20_000): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.items.find(match);
        if (found !== undefined) return done(() => resolve(found));
        if (this.errors.length) return done(() => reject(new Error(`${label}: ${JSON.stringify(this.errors)}`)));
      };
      const timer = setTimeout(
        () => done(() => reject(new Error(`${label}: not seen in ${timeoutMs} ms; got ${JSON.stringify(this.items)}`))),
        timeoutMs,
      );
      const done = (settle: () => void) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        settle();
      };
      this.waiters.add(check);
      check();
    });
  }
}

/** Parsed `data:` payloads of a `text/event-stream` body. */
export async function* sseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<Payload> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    for (let cut = buffer.indexOf("\n\n"); cut >= 0; cut = buffer.indexOf("\n\n")) {
      const chunk = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const data = chunk
        .split("\n")
        .filter((l) => l.startsWith("data:"))
        .map((l) => l.slice(5).trim())
        .join("");
      if (data) yield JSON.parse(data) as Payload;
    }
  }
}

export type Subscription = { query: string; variables?: Record<string, unknown>; field: string };

/** One SSE request per subscription; `close` aborts them all. */
export async function sseSubscriptions(endpoint: string, subs: Record<string, Subscription>) {
  const controller = new AbortController();
  const streams: Record<string, Collected> = {};
  await Promise.all(
    Object.entries(subs).map(async ([name, sub]) => {
      const collected = new Collected();
      streams[name] = collected;
      const res = await fetch(endpoint, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "text/event-stream" },
        body: JSON.stringify({ query: sub.query, variables: sub.variables }),
        signal: controller.signal,
      });
      if (!res.headers.get("content-type")?.includes("text/event-stream")) {
        throw new Error(`${name}: ${res.status} ${await res.text()}`);
      }
      void (async () => {
        try {
          for await (const payload of sseEvents(res.body!)) collected.push(payload, sub.field);
        } catch (e) {
          if (!controller.signal.aborted) collected.fail(e);
        }
      })();
    }),
  );
  return { streams, close: () => controller.abort() };
}

/** A graphql-ws client over `ws`, connected before it returns. */
export async function wsClient(url: string) {
  let connected!: () => void;
  let failed!: (e: unknown) => void;
  const ready = new Promise<void>((ok, ko) => {
    connected = ok;
    failed = ko;
  });
  const client = createClient({
    url,
    webSocketImpl: WebSocket,
    lazy: false,
    retryAttempts: 0,
    on: { connected: () => connected(), closed: (e) => failed(e), error: (e) => failed(e) },
  });
  await ready;
  return client;
}

/** Every subscription over one WebSocket; `close` ends them and the socket. */
export async function wsSubscriptions(url: string, subs: Record<string, Subscription>) {
  const client = await wsClient(url);
  const streams: Record<string, Collected> = {};
  const stops = Object.entries(subs).map(([name, sub]) => {
    const collected = new Collected();
    streams[name] = collected;
    return client.subscribe(
      { query: sub.query, variables: sub.variables },
      {
        next: (payload) => collected.push(payload as Payload, sub.field),
        error: (e) => collected.fail(e),
        complete: () => {},
      },
    );
  });
  return {
    streams,
    close: async () => {
      for (const stop of stops) stop();
      await client.dispose();
    },
  };
}

/** One operation over a fresh WebSocket: its first payload, or the errors that refused it. */
export async function wsOnce(url: string, query: string): Promise<Payload> {
  const client = await wsClient(url);
  try {
    return await new Promise<Payload>((resolve) => {
      client.subscribe(
        { query },
        {
          next: (p) => resolve(p as Payload),
          error: (e) => resolve({ errors: Array.isArray(e) ? e : [{ message: String(e) }] }),
          complete: () => {},
        },
      );
    });
  } finally {
    await client.dispose();
  }
}
