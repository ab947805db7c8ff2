/**
 * The shared store's tables, in schema `kusd_monitor`. Made under a transaction-scoped advisory
 * lock, so monitors started at once on an empty database migrate once, one after the other,
 * instead of racing `CREATE ... IF NOT EXISTS` into a duplicate-type error.
 *
 * - `cursor`: one row per group: its state (floor, alerted items inside the reorg window,
 *   conditions, risk) and a version every commit moves by one (the commit's compare-and-set).
 * - `outbox`: one row per (group, destination, delivery id): a message is queued once, whoever
 *   detects it; delivered in `seq` order; `done_by` names the monitor that delivered it.
 * - `destination`: one row per (group, destination): a monitor delivers a destination only while
 *   it holds this row's lock, which keeps deliveries in order and ends with its connection.
 * - `group_config`: what the group's first monitor watched and where it delivered (and its digest),
 *   so a monitor started with another configuration says so.
 */
import type { Sql } from "postgres";

export const SCHEMA = "kusd_monitor";
const MIGRATION_LOCK = 0x6b75_7364; // "kusd": the advisory lock's key

const VERSION_1 = `
create schema if not exists ${SCHEMA};
create table if not exists ${SCHEMA}.migration (
  version int primary key,
  applied_at timestamptz not null default now(),
  applied_by text not null
);
create table if not exists ${SCHEMA}.cursor (
  "group" text primary key,
  version bigint not null,
  state jsonb not null,
  updated_at timestamptz not null default now(),
  updated_by text not null
);
create table if not exists ${SCHEMA}.outbox (
  seq bigserial primary key,
  "group" text not null,
  destination text not null,
  delivery_id text not null,
  kind text not null,
  message jsonb not null,
  status text not null default 'pending' check (status in ('pending', 'delivered', 'dead')),
  enqueued_at timestamptz not null default now(),
  enqueued_by text not null,
  failures int not null default 0,
  not_before timestamptz not null default now(),
  last_error text,
  done_at timestamptz,
  done_by text,
  unique ("group", destination, delivery_id)
);
create index if not exists outbox_pending on ${SCHEMA}.outbox ("group", destination, seq) where status = 'pending';
create table if not exists ${SCHEMA}.destination (
  "group" text not null,
  destination text not null,
  primary key ("group", destination)
);
create table if not exists ${SCHEMA}.group_config (
  "group" text primary key,
  digest text not null,
  config jsonb not null,
  set_by text not null,
  set_at timestamptz not null default now()
);
`;

/** Brings the schema to the current version; returns the versions this call applied. */
export async function migrate(sql: Sql, instance: string): Promise<number[]> {
  return sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(${MIGRATION_LOCK})`;
    const [found] = await tx`select to_regclass(${`${SCHEMA}.migration`}) is not null as present`;
    const applied = found?.present ? (await tx`select version from ${tx(SCHEMA)}.migration`).map((r) => r.version) : [];
    if (applied.includes(1)) return [];
    await tx.unsafe(VERSION_1);
    await tx`insert into ${tx(SCHEMA)}.migration (version, applied_by) values (1, ${instance})`;
    return [1];
  });
}
