/**
 * `GET /api/export/<connection>.csv` and `.ndjson` for every entity GraphQL lists, taking the
 * same filters as GraphQL (one compiler, graphql/query/where.ts), streamed in keyset batches so
 * memory stays flat however many rows there are. An event entity is exported as of the indexed
 * head when the export starts (rows indexed while it streams are not half-included), or as of
 * `block`. Bad input is a 400 (a block past the head 422) in the API's JSON error shape, before
 * any row is sent.
 */
import { and } from "drizzle-orm";
import { type Context, Hono } from "hono";
import { describeRoute } from "hono-openapi";
import { type ReportContext, reportHead } from "../context.js";
import { BATCH_ROWS, rowBatches } from "../graphql/query/batches.js";
import { resolveBlock } from "../graphql/query/block.js";
import type { EntitySpec, Row } from "../graphql/query/entity.js";
import { orderingOf } from "../graphql/query/order.js";
import { QueryInputError } from "../graphql/query/query-error.js";
import { compileWhere } from "../graphql/query/where.js";
import { ENTITY_SPECS } from "../graphql/specs/index.js";
import { ApiError } from "../http/errors.js";
import { exportDescription } from "./describe.js";
import { CONTENT_TYPES, csvHeader, type ExportFormat, formatRows } from "./format.js";
import { exportQuery } from "./params.js";

export const EXPORT_FORMATS: readonly ExportFormat[] = ["csv", "ndjson"];

/** Rows per batch when the export is sorted by another column than the key's first. */
export const SORTED_BATCH_ROWS = 5_000;

export const exportPath = (spec: EntitySpec, format: ExportFormat) => `/api/export/${spec.connection}.${format}`;

export function exportRoutes(ctx: ReportContext, specs: readonly EntitySpec[] = ENTITY_SPECS): Hono {
  const app = new Hono();
  for (const spec of specs)
    for (const format of EXPORT_FORMATS)
      app.get(exportPath(spec, format), describeRoute(exportDescription(spec, format)), (c) =>
        serveExport(ctx, spec, format, c),
      );
  return app;
}

async function serveExport(ctx: ReportContext, spec: EntitySpec, format: ExportFormat, c: Context) {
  const { batches, block } = await prepare(ctx, spec, new URL(c.req.url).searchParams);
  // The first batch is read before answering: a database that is down is still a 503 with a body.
  const first = await batches.next();
  const encoder = new TextEncoder();
  let pending: IteratorResult<Row[]> | null = first;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      if (format === "csv") controller.enqueue(encoder.encode(csvHeader(spec)));
    },
    async pull(controller) {
      try {
        const next = pending ?? (await batches.next());
        pending = null;
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(formatRows(spec, format, next.value)));
      } catch (e) {
        // Headers are sent: the only way left to say the export is incomplete is to break the stream.
        console.error(`[api] export ${spec.connection}.${format} failed mid-stream:`, e);
        controller.error(e);
      }
    },
    async cancel() {
      await batches.return(undefined);
    },
  });
  return c.body(body, 200, {
    "content-type": CONTENT_TYPES[format],
    "content-disposition": `attachment; filename="${spec.connection}${block === null ? "" : `-${block}`}.${format}"`,
    "cache-control": "no-store",
    ...(block !== null && { "x-block-number": String(block) }),
  });
}

/** The query an export runs, checked whole before the first row: a refusal is an error body, never a cut stream. */
async function prepare(ctx: ReportContext, spec: EntitySpec, params: URLSearchParams) {
  try {
    const q = exportQuery(spec, params);
    const asked = await resolveBlock(ctx, q.block);
    const block = asked ?? (spec.blockColumn ? ((await reportHead(ctx))?.blockNumber ?? null) : null);
    const source = spec.source(block);
    const where = and(compileWhere(spec, source, q.where, "where"), compileWhere(spec, source, q.filters, ""));
    const ordering = orderingOf(spec, q.orderBy, q.orderDirection);
    // Under an order no index serves, each batch costs a scan and sort of the filtered rows: fewer, larger batches.
    const batch = ordering.orderBy === spec.key[0] ? BATCH_ROWS : SORTED_BATCH_ROWS;
    return { block, batches: rowBatches(ctx.db, { source, where, ordering }, { limit: q.limit, batch }) };
  } catch (e) {
    if (e instanceof QueryInputError) throw new ApiError(e.code, e.message, e.details);
    throw e;
  }
}
