/**
 * The signed statements (spec 2.1): the latest, the history and one by hash, byte for byte as
 * stored; issuing one on demand (operator only); and the signer binding a verifier needs.
 */

import type { SignerBinding } from "@kusd/core";
import {
  type PublishedStatement,
  PublishedStatementSchema,
  SignerRegistrySchema,
  StatementHistorySchema,
} from "@kusd/core";
import { Hono } from "hono";
import type { Address, Hex } from "viem";
import { z } from "zod";
import type { ReportContext } from "../context.js";
import { ApiError } from "../http/errors.js";
import { limitParam } from "../http/query-params.js";
import { HEAD_MAX_AGE_SECONDS, sendRendered } from "../http/rendered.js";
import { contract } from "../http/route-contract.js";
import { MAX_LIST_LIMIT } from "../store/operator-store.js";
import type { StatementService } from "./statement-service.js";

export type StatementRoutesOptions = {
  ctx: ReportContext;
  statements: StatementService;
  /** Bearer token that allows POST /api/por/signed (issue on demand); unset disables it. */
  adminToken?: string;
};

const published = (artifact: string) => JSON.parse(artifact) as PublishedStatement;

const STATEMENT_TAGS = ["Signed statements"];

export const signedContract = {
  summary: "The latest signed reserves statement (EIP-191 over the SHA-256 of its canonical payload)",
  description:
    "The stored bytes as published: only signed_payload_canonical is signed, and the fields beside it are copies a verifier checks against it. Signed hourly from /api/por at the head.",
  tags: STATEMENT_TAGS,
  response: PublishedStatementSchema,
  errors: { 503: "no statement yet: the indexer is catching up, or no signing key is configured" },
};

export const historyContract = {
  summary: "Past signed statements, newest first",
  description:
    "At most `limit` statements signed before `before`; `next` is the URL of the following page when this one is full, else null.",
  tags: STATEMENT_TAGS,
  query: z.object({
    limit: limitParam(MAX_LIST_LIMIT, 24),
    before: z
      .string()
      .regex(/^\d{1,12}$/, "before must be a unix timestamp in seconds")
      .transform(Number)
      .optional()
      .describe("only statements signed before this unix time"),
  }),
  response: StatementHistorySchema,
};

export const statementByHashContract = {
  summary: "One past signed statement by its attestation_hash",
  description: "Byte for byte as it was published; it never changes.",
  tags: STATEMENT_TAGS,
  params: z.object({
    hash: z.string().regex(/^0x[0-9a-fA-F]{64}$/, "expected an attestation_hash: 0x and 64 hex characters"),
  }),
  response: PublishedStatementSchema,
  errors: { 404: "no statement with this attestation_hash" },
};

export const signerRegistryContract = {
  summary: "The signer binding: which key signs artifacts from which date, signed by the operator account",
  description:
    "A verifier that trusts the operator account derives from it which key may sign an artifact of a given date (`kusd-verify --binding … --operator …`).",
  tags: STATEMENT_TAGS,
  response: SignerRegistrySchema,
  errors: { 404: "no attestation key is configured" },
};

export const signerRegistryByHashContract = {
  summary:
    "A signer binding by its attestation_hash: the one a statement names in signer_binding_hash, whatever host serves it",
  description:
    "Every binding ever published here stays served by its hash, so an old statement's binding can be checked.",
  tags: STATEMENT_TAGS,
  params: z.object({ hash: statementByHashContract.params.shape.hash }),
  response: SignerRegistrySchema,
  errors: { 404: "no binding with this attestation_hash was ever published here" },
};

export function statementRoutes({ ctx, statements, adminToken }: StatementRoutesOptions) {
  const app = new Hono();

  // The stored bytes as published (what was signed and hashed), not a re-serialisation.
  app.get("/api/por/signed", ...contract(signedContract), async (c) =>
    sendRendered(c, (await statements.latestRendered()).rendered, `public, max-age=${HEAD_MAX_AGE_SECONDS}`),
  );

  app.get("/api/por/signed/history", ...contract(historyContract), async (c) => {
    const { limit, before } = c.req.valid("query");
    const store = await statements.store;
    const rows = await store.statements.list({ limit, ...(before !== undefined && { before }) });
    const last = rows.at(-1);
    return c.json({
      statements: rows.map((r) => ({
        timestamp: r.timestamp,
        blockNumber: Number(r.blockNumber),
        signer: r.signer as Address,
        status: r.status,
        attestation_hash: r.attestationHash as Hex,
        url: `${ctx.siteUrl}/api/por/signed/${r.attestationHash}`,
      })),
      next:
        rows.length === limit && last
          ? `${ctx.siteUrl}/api/por/signed/history?limit=${limit}&before=${last.timestamp}`
          : null,
    } satisfies z.infer<typeof StatementHistorySchema>);
  });

  app.get("/api/por/signed/:hash", ...contract(statementByHashContract), async (c) => {
    const hash = c.req.param("hash");
    const row = await (await statements.store).statements.byHash(hash);
    if (!row) throw new ApiError("statement_not_found", "no statement with this attestation_hash", { hash });
    return c.json(published(await statements.withAnchor(row.artifact, row.attestationHash)));
  });

  app.post("/api/por/signed", async (c) => {
    if (!adminToken || c.req.header("authorization") !== `Bearer ${adminToken}`) {
      throw new ApiError("forbidden", "issuing a statement on demand needs the operator's admin token");
    }
    return c.json(await statements.issue(c.req.query("block")), 201);
  });

  const withVerify = (binding: SignerBinding) =>
    ({
      ...binding,
      verify: `npx kusd-verify ${ctx.siteUrl}/api/por/signed --binding ${ctx.siteUrl}/api/por/signer-registry/${binding.attestation_hash.toLowerCase()} --operator ${binding.binding.operator}`,
    }) satisfies z.infer<typeof SignerRegistrySchema>;

  app.get("/api/por/signer-registry", ...contract(signerRegistryContract), async (c) => {
    const binding = await statements.binding();
    if (!binding)
      throw new ApiError(
        "binding_not_configured",
        "no attestation key is configured: every artifact is signed by the operator account",
      );
    return c.json(withVerify(binding));
  });

  // A binding never changes once signed, so its copy under its own hash is immutable.
  app.get("/api/por/signer-registry/:hash", ...contract(signerRegistryByHashContract), async (c) => {
    const hash = c.req.param("hash");
    const stored = await (await statements.store).bindings.byHash(hash);
    if (!stored)
      throw new ApiError("binding_not_found", "no signer binding with this attestation_hash was published here", {
        hash,
      });
    c.header("Cache-Control", "public, max-age=31536000, immutable");
    return c.json(withVerify(JSON.parse(stored) as SignerBinding));
  });

  return app;
}
