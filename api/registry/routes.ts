/**
 * The account registry (`/api/por/accounts`, the operator's path for it, `?version=N` for any
 * published version) and its violations (`/api/por/accounts/violations`).
 */

import {
  buildViolationPage,
  RegistryDocumentSchema,
  RegistryVersionsSchema,
  ViolationPageSchema,
  violationPins,
} from "@kusd/core";
import { Hono } from "hono";
import { z } from "zod";
import { type ReportContext, reportBlockHeader } from "../context.js";
import { ApiError, badRequest } from "../http/errors.js";
import { blockBound, limitParam } from "../http/query-params.js";
import { contract } from "../http/route-contract.js";
import { indexedHead, violationsAfter } from "../io/indexed-reads.js";
import type { RegistryService } from "./registry-service.js";

type RegistryVersions = z.infer<typeof RegistryVersionsSchema>;

export const MAX_VIOLATIONS_PAGE = 1_000;

const TAGS = ["Account registry"];

export const accountsContract = {
  summary: "The account registry, latest version or ?version=N (spec 2.6)",
  description:
    "The operator's listed accounts with their roles, the version's account_set_digest and the operator's signature over it, and the violation predicate the violations feed applies; `kusd-verify-registry` checks a version.",
  tags: TAGS,
  query: z.object({
    version: z
      .string()
      .regex(/^[1-9]\d{0,5}$/, "version must be a positive integer")
      .transform(Number)
      .optional()
      .describe("a published registry version"),
  }),
  response: RegistryDocumentSchema,
  errors: {
    404: "no such registry version",
    503: "a membership proof does not check out: the version is not published",
  },
};

export const versionsContract = {
  summary: "Every published registry version with its digest",
  description: "Per version: its number, as_of, issued_at, entry count and account_set_digest, oldest first.",
  tags: TAGS,
  response: RegistryVersionsSchema,
};

export const violationsContract = {
  summary: "Transfers out of listed accounts that the registry's violation predicate flags, in (block, logIndex) order",
  description:
    "From indexed transfers, at most `limit` per page; `next` is the cursor of the last violation when the page is full (pass it as `after`), else null.",
  tags: TAGS,
  query: z.object({
    limit: limitParam(MAX_VIOLATIONS_PAGE, 100),
    after: z
      .string()
      .regex(/^\d{1,15}:\d{1,9}$/, "after must be a cursor of the form <block>:<logIndex>")
      .optional()
      .describe("resume after this violation's cursor"),
    fromBlock: blockBound("fromBlock"),
    toBlock: blockBound("toBlock"),
  }),
  queryErrorCodes: { after: "invalid_cursor" as const },
  response: ViolationPageSchema,
  errors: { 503: "the indexer has not started yet" },
};

export function registryRoutes(ctx: ReportContext, registry: RegistryService) {
  const app = new Hono();

  app.get("/api/por/accounts", ...contract(accountsContract), async (c) => {
    const { version } = c.req.valid("query");
    return c.json(await registry.version(version));
  });

  app.get("/api/por/accounts/versions", ...contract(versionsContract), async (c) => {
    const docs = await registry.all();
    return c.json({
      versions: [...docs.values()].map((d) => ({
        registry_version: d.registry.registry_version,
        as_of: d.registry.as_of,
        issued_at: d.registry.issued_at,
        entries: d.registry.entries.length,
        account_set_digest: d.registry.account_set_digest,
      })),
    } satisfies RegistryVersions);
  });

  app.get("/api/por/accounts/violations", ...contract(violationsContract), async (c) => {
    const q = c.req.valid("query");
    const head = await indexedHead(ctx.db, "base");
    if (!head) throw new ApiError("not_indexed_yet", "the indexer has not started on base yet");
    const m = q.after === undefined ? null : /^(\d+):(\d+)$/.exec(q.after)!;
    const after = m ? { block: BigInt(m[1]!), logIndex: Number(m[2]) } : null;
    const fromBlock = q.fromBlock ?? 0n;
    const toBlock = q.toBlock ?? head.blockNumber;
    if (toBlock < fromBlock)
      throw badRequest("invalid_range", "toBlock is before fromBlock", {
        fromBlock: Number(fromBlock),
        toBlock: Number(toBlock),
      });
    const window = { after, fromBlock, toBlock, limit: q.limit };
    const [rows, header] = await Promise.all([
      violationsAfter(ctx.db, window),
      reportBlockHeader(ctx, head.blockNumber),
    ]);
    const n = ctx.network;
    return c.json(
      buildViolationPage({
        indexedHead: head,
        rows,
        window,
        pins: violationPins({
          network: { chainId: n.chains.base.id, documentSha256: n.documentSha256 },
          block: header && { number: Number(head.blockNumber), hash: header.hash, timestamp: header.timestamp },
        }),
      }),
    );
  });

  return app;
}
