/**
 * One route's contract in one place: its query schema (validated at the edge, a bad value is a
 * 400 with a stable code; the handler reads the parsed query, typed, with `c.req.valid("query")`),
 * its response schema (the type the handler returns, the OpenAPI document's entry, and, when the
 * app checks responses, a check on every answer it sends).
 */
import type { Context, Env, MiddlewareHandler } from "hono";
import { describeRoute, resolver, validator } from "hono-openapi";
import type { z } from "zod";
import type { ErrorCode } from "./error-codes.js";
import { badRequest, errorBody } from "./errors.js";

export type RouteContract<Q extends z.ZodType | undefined, R extends z.ZodType> = {
  summary: string;
  /** What the answer holds and how to read it: every operation of the document has one. */
  description: string;
  tags: readonly string[];
  query?: Q;
  /** Path parameters (`/:hash`), refused with a 400 like query parameters. */
  params?: z.ZodType;
  response: R;
  /** Error code per parameter when it is not `invalid_<name>`. */
  queryErrorCodes?: Record<string, ErrorCode>;
  /** Error statuses the route can answer besides 400, with what they mean. */
  errors?: Record<number, string>;
};

declare module "hono" {
  interface ContextVariableMap {
    /** Set by the app when every answer is to be checked against its schema (the e2e stack does). */
    checkResponses?: boolean;
  }
}

const errorContent = (description: string) => ({
  description,
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
});

function issueParam(issue: { path?: ReadonlyArray<PropertyKey | { key: PropertyKey }> }): string {
  const first = issue.path?.[0];
  return String(typeof first === "object" && first !== null ? first.key : (first ?? "query"));
}

/** What a contract's query validator adds to a handler's context: `c.req.valid("query")`, parsed. */
export type ValidQuery<Q extends z.ZodType | undefined> = Q extends z.ZodType
  ? { in: { query: Record<string, string | string[]> }; out: { query: z.output<Q> } }
  : // biome-ignore lint/complexity/noBannedTypes: Hono's input of a route without validated parts
    {};

/** The middlewares of a route: its OpenAPI description, its parameter validators, its response check. */
export function contract<Q extends z.ZodType | undefined, R extends z.ZodType>(
  c: RouteContract<Q, R>,
): [MiddlewareHandler, MiddlewareHandler, MiddlewareHandler<Env, string, ValidQuery<Q>>, MiddlewareHandler] {
  const described = describeRoute({
    summary: c.summary,
    description: c.description,
    tags: [...c.tags],
    responses: {
      200: { description: c.summary, content: { "application/json": { schema: resolver(c.response) } } },
      ...Object.fromEntries(Object.entries(c.errors ?? {}).map(([status, text]) => [status, errorContent(text)])),
    },
  });
  const checked: MiddlewareHandler = async (ctx, next) => {
    await next();
    if (!ctx.get("checkResponses") || ctx.res.status !== 200) return;
    const body: unknown = await ctx.res.clone().json();
    const parsed = c.response.safeParse(body);
    if (parsed.success) return;
    // A contract breach is the server's bug: it must fail loudly in tests, never pass silently.
    const issues = parsed.error.issues.slice(0, 10).map((i) => ({ path: i.path.join("."), message: i.message }));
    console.error(`[api] ${ctx.req.method} ${ctx.req.path}: response breaks its schema`, JSON.stringify(issues));
    ctx.res = ctx.json(
      errorBody("response_contract_violated", "the response does not match its published schema", { issues }),
      500,
    );
  };
  const refuse =
    (target: "query" | "param") =>
    (
      result: {
        success: boolean;
        error?: readonly { path?: ReadonlyArray<PropertyKey | { key: PropertyKey }>; message: string }[];
      },
      ctx: Context,
    ) => {
      if (result.success) return;
      const issue = result.error![0]!;
      const name = issueParam(issue);
      const raw = target === "query" ? ctx.req.query(name) : ctx.req.param(name);
      throw badRequest(c.queryErrorCodes?.[name] ?? `invalid_${name}`, issue.message, { [name]: raw ?? null });
    };
  const pass: MiddlewareHandler = (_ctx, next) => next();
  const params: MiddlewareHandler = c.params ? validator("param", c.params, refuse("param")) : pass;
  // The one cast of the routes: hono-openapi types a validator by its schema's standard-schema
  // output, which TypeScript cannot equate with z.output<Q> while Q is generic.
  const query = (c.query ? validator("query", c.query, refuse("query")) : pass) as MiddlewareHandler<
    Env,
    string,
    ValidQuery<Q>
  >;
  return [described, params, query, checked];
}
