/**
 * Ponder's tables in a scratch database, from ponder.schema.ts itself (column names, SQL types,
 * enums, primary keys): unit tests and the export bench fill them with rows of their own, without
 * a devnet or an indexer.
 */
import { getTableConfig, getViewConfig, PgDialect, type PgTable, type PgView } from "drizzle-orm/pg-core";

type EnumColumn = { enum?: { enumName: string; enumValues: readonly string[] } };

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * CREATE TYPE for the tables' enums, then CREATE TABLE and the tables' indexes (as Ponder makes
 * them), in `schema` (search_path when absent).
 */
export function createTablesSql(tables: readonly PgTable[], schema?: string): string[] {
  const qualify = (name: string) => (schema ? `${quote(schema)}.${quote(name)}` : quote(name));
  const enums = new Map<string, readonly string[]>();
  const statements: string[] = [];
  for (const table of tables) {
    const config = getTableConfig(table);
    const columns = config.columns.map((c) => {
      const e = (c as unknown as EnumColumn).enum;
      if (e) enums.set(e.enumName, e.enumValues);
      const type = e ? qualify(e.enumName) : c.getSQLType();
      return `${quote(c.name)} ${type}${c.notNull ? " not null" : ""}${c.primary ? " primary key" : ""}`;
    });
    statements.push(`create table ${qualify(config.name)} (${columns.join(", ")})`);
    for (const index of config.indexes) {
      const on = (index.config.columns as { name?: string }[]).map((c) => quote(c.name ?? "")).join(", ");
      statements.push(`create index on ${qualify(config.name)} (${on})`);
    }
  }
  const types = [...enums].map(
    ([name, values]) => `create type ${qualify(name)} as enum (${values.map((v) => `'${v}'`).join(", ")})`,
  );
  return [...types, ...statements];
}

/** CREATE VIEW for Ponder's views (ponder.schema.ts), over tables of the search_path, as Ponder makes them. */
export function createViewsSql(views: readonly PgView[]): string[] {
  const dialect = new PgDialect();
  return views.map((view) => {
    const config = getViewConfig(view);
    return `create view ${quote(config.name)} as ${dialect.sqlToQuery(config.query!).sql}`;
  });
}

/** Ponder's checkpoint row for a chain at `block` (what indexedHead reads): timestamp (10), chain id (16), block (16). */
export function checkpointSql(
  chain: string,
  chainId: number,
  block: bigint,
  timestamp: number,
  schema?: string,
): string[] {
  const table = schema ? `${quote(schema)}._ponder_checkpoint` : "_ponder_checkpoint";
  const checkpoint =
    `${String(timestamp).padStart(10, "0")}${String(chainId).padStart(16, "0")}${String(block).padStart(16, "0")}`.padEnd(
      75,
      "0",
    );
  return [
    `create table if not exists ${table} (chain_name text primary key, chain_id bigint not null, latest_checkpoint varchar(75) not null)`,
    `delete from ${table} where chain_name = '${chain}'`,
    `insert into ${table} values ('${chain}', ${chainId}, '${checkpoint}')`,
  ];
}
