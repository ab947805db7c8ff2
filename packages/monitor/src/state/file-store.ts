/**
 * The single-process store: the state in one JSON file (rewritten atomically) and the outbox as
 * one durable queue file per destination (outbox/outbox.ts). A commit queues first and then writes
 * the state: a crash between the two re-detects the items, and the queues drop what they have.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { MonitorMessage } from "../deliver.js";
import type { Outbox } from "../outbox/outbox.js";
import type { MonitorState, Versioned } from "./monitor-state.js";
import type { MonitorStore } from "./store.js";

export function readStateFile(path: string | null): MonitorState | null {
  if (!path || !existsSync(path)) return null;
  return JSON.parse(readFileSync(path, "utf8")) as MonitorState;
}

function writeStateFile(path: string | null, state: MonitorState) {
  if (!path) return;
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(`${path}.tmp`, JSON.stringify(state));
  renameSync(`${path}.tmp`, path); // atomic: a crash leaves the old state or the new one
}

/** `statePath` null: state and queues in memory only (tests, `--once` without a state). */
export function fileStore(statePath: string | null, outbox: Outbox): MonitorStore {
  // One process owns the file: the version only counts commits, nobody else moves it.
  let version = 0;
  return {
    kind: "file",
    load: async () => {
      const state = readStateFile(statePath);
      return state ? { state, version } : null;
    },
    create: async (state) => {
      writeStateFile(statePath, state);
      return { state, version };
    },
    commit: async (_base: Versioned, messages: MonitorMessage[], next: MonitorState) => {
      for (const m of messages) outbox.enqueue(m); // durable in every queue on return
      writeStateFile(statePath, next);
      version += 1;
      return { state: next, version };
    },
    run: (signal) => outbox.run(signal),
    drainOnce: () => outbox.drainOnce(),
    stats: async () => outbox.stats(),
    close: async () => {},
  };
}
