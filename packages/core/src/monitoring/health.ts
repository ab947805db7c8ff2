/**
 * GET /api/health: is the service serving current figures. Pure: the edge reads the indexed
 * head, the chain head and the latest statement's signed time.
 */
import { z } from "zod";

const Dependency = z.strictObject({ ok: z.boolean().nullable().describe("null: not configured"), detail: z.string() });
export type DependencyState = z.infer<typeof Dependency>;

export const HealthSchema = z.strictObject({
  ok: z
    .boolean()
    .describe(
      "the database and the operator store answer, the chain answers, the indexer is within maxLagBlocks of it, and a statement younger than maxStatementAgeSeconds is published (the venue is reported under dependencies; a venue outage leaves the mirror unrecognised, not the service down)",
    ),
  indexedBlock: z.number().int().nullable(),
  chainHead: z.number().int().nullable().describe("eth_blockNumber of the service's RPC; null when it did not answer"),
  lagBlocks: z.number().int().nullable(),
  statementAgeSeconds: z
    .number()
    .int()
    .nullable()
    .describe("seconds since the latest signed statement's signed timestamp; null when none is published"),
  limits: z.strictObject({ maxLagBlocks: z.number().int(), maxStatementAgeSeconds: z.number().int() }),
  problems: z.array(z.string()).describe("why ok is false, one line each"),
  dependencies: z
    .strictObject({ database: Dependency, operatorStore: Dependency, chain: Dependency, venue: Dependency })
    .describe(
      "each dependency as this request found it: the indexed database, the operator store (statements, payments), the chain RPC, the venue",
    ),
});
export type Health = z.infer<typeof HealthSchema>;

export type HealthInputs = {
  indexedBlock: bigint | null;
  chainHead: bigint | null;
  statementSignedAt: number | null;
  now: number;
  maxLagBlocks: number;
  maxStatementAgeSeconds: number;
  dependencies: {
    database: DependencyState;
    operatorStore: DependencyState;
    chain: DependencyState;
    venue: DependencyState;
  };
};

export function buildHealth(i: HealthInputs): Health {
  const lag = i.indexedBlock !== null && i.chainHead !== null ? Number(i.chainHead - i.indexedBlock) : null;
  const age = i.statementSignedAt === null ? null : Math.max(0, i.now - i.statementSignedAt);
  const d = i.dependencies;
  const down = (name: string, dep: DependencyState) =>
    dep.ok === false ? [`${name} is unavailable: ${dep.detail}`] : [];
  const problems = [
    ...down("the database", d.database),
    ...down("the operator store", d.operatorStore),
    ...(i.chainHead === null ? ["the chain RPC did not answer eth_blockNumber"] : []),
    ...(i.indexedBlock === null && d.database.ok !== false ? ["the indexer has no checkpoint yet"] : []),
    ...(lag !== null && lag > i.maxLagBlocks
      ? [`the indexer is ${lag} blocks behind the chain (limit ${i.maxLagBlocks})`]
      : []),
    ...(age === null
      ? d.operatorStore.ok === false
        ? []
        : ["no signed statement is published"]
      : age > i.maxStatementAgeSeconds
        ? [`the latest signed statement is ${age} s old (limit ${i.maxStatementAgeSeconds} s)`]
        : []),
  ];
  return {
    ok: problems.length === 0,
    indexedBlock: i.indexedBlock === null ? null : Number(i.indexedBlock),
    chainHead: i.chainHead === null ? null : Number(i.chainHead),
    lagBlocks: lag,
    statementAgeSeconds: age,
    limits: { maxLagBlocks: i.maxLagBlocks, maxStatementAgeSeconds: i.maxStatementAgeSeconds },
    problems,
    dependencies: d,
  };
}
