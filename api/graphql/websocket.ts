/**
 * GraphQL over WebSocket (the graphql-ws protocol, subprotocol `graphql-transport-ws`) at
 * /graphql, on the HTTP server's own port: `upgrade` is a listener for the server's 'upgrade'
 * event. Each operation runs through the same yoga instance as HTTP (`getEnveloped`): the same
 * schema, the same context factory (fresh DataLoaders, a counted database handle), the same
 * limits (GraphQL Armor, the nesting scan) and the same error masking.
 */
import type { IncomingMessage } from "node:http";
import { createRequire } from "node:module";
import type { Duplex } from "node:stream";
import type { DocumentNode, ExecutionArgs, GraphQLError } from "graphql";
import type { Context, SubscribePayload } from "graphql-ws";
import { useServer } from "graphql-ws/use/ws";
import { WebSocketServer } from "ws";
import type { ErrorCode } from "../http/error-codes.js";
import { errorBody } from "../http/errors.js";
import { type GraphQLServer, maskUnlessDatabaseDown } from "./yoga.js";

type Enveloped = ReturnType<GraphQLServer["getEnveloped"]>;

/**
 * graphql-ws, loaded by Node, sends refusals only as instances of its own GraphQLError class:
 * `graphql` as Node resolves it, the CommonJS build (the package has no exports map). Under
 * Ponder, which runs the API through vite, this file's, yoga's and Armor's `graphql` may be the
 * ESM build, a class of its own: refusals are remade as Node's.
 */
const { GraphQLError: NodeGraphQLError } = createRequire(import.meta.url)("graphql") as typeof import("graphql");

export type GraphQLWebSocket = {
  /** Listener for the HTTP server's 'upgrade' event: accepts WebSockets at `path`, answers anything else with a JSON error. */
  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Closes every socket (1001, going away); their subscriptions end. */
  close(): Promise<void>;
};

export type WebSocketLimits = {
  /** The largest message a client may send (ws closes the socket with 1009 beyond it). */
  maxMessageBytes: number;
  /** Operations one socket may run at once: each live subscription polls the database. */
  maxOperations: number;
};

export const DEFAULT_WEBSOCKET_LIMITS: WebSocketLimits = { maxMessageBytes: 16 * 1024, maxOperations: 20 };

export function graphqlWebSocket(
  yoga: GraphQLServer,
  limits: WebSocketLimits = DEFAULT_WEBSOCKET_LIMITS,
  path = "/graphql",
): GraphQLWebSocket {
  const wss = new WebSocketServer({ noServer: true, maxPayload: limits.maxMessageBytes });
  // Per socket, each running operation's abort controller: its context's `signal`, aborted when
  // the operation completes or the socket closes, as a request's signal is when an SSE client leaves.
  const running = new WeakMap<object, Map<string, AbortController>>();
  const operationsOf = (ctx: Context) => {
    const ops = running.get(ctx) ?? new Map<string, AbortController>();
    running.set(ctx, ops);
    return ops;
  };
  const stop = (ctx: Context, id: string) => {
    operationsOf(ctx).get(id)?.abort();
    operationsOf(ctx).delete(id);
  };
  const server = useServer(
    {
      // Close reasons and error messages never carry internals, whatever NODE_ENV says (as yoga's isDev: false).
      isProd: true,
      execute: (args: ExecutionArgs) => (args.rootValue as Enveloped).execute(args),
      subscribe: (args: ExecutionArgs) => (args.rootValue as Enveloped).subscribe(args),
      onSubscribe: async (ctx, id, payload) => {
        const ops = operationsOf(ctx);
        if (ops.size >= limits.maxOperations) {
          return [
            new NodeGraphQLError(`at most ${limits.maxOperations} operations may run at once on one connection`, {
              extensions: { code: "OPERATION_LIMIT", max: limits.maxOperations },
            }),
          ];
        }
        const controller = new AbortController();
        const enveloped = yoga.getEnveloped({
          request: new Request(new URL(path, "http://localhost"), { signal: controller.signal }),
          params: payload,
        });
        const document = checkedDocument(enveloped, payload);
        if (Array.isArray(document)) return document;
        ops.set(id, controller);
        return {
          schema: enveloped.schema,
          document,
          variableValues: payload.variables,
          operationName: payload.operationName,
          contextValue: await enveloped.contextFactory(),
          // Where execute and subscribe above find this operation's enveloped functions.
          rootValue: enveloped,
        };
      },
      // A fault a stream threw while it ran arrives wrapped with its own message: mask it as yoga
      // masks HTTP's. Refusals and errors a resolver meant (GraphQLErrors) pass as they are.
      onError: (_ctx, _id, _payload, errors) =>
        errors.map((e) =>
          (e.originalError && !graphQLErrorLike(e.originalError) ? masked(e.originalError) : e).toJSON(),
        ),
      onComplete: (ctx, id) => stop(ctx, id),
      onClose: (ctx) => {
        for (const id of [...operationsOf(ctx).keys()]) stop(ctx, id);
      },
    },
    wss,
  );
  return {
    upgrade(request, socket, head) {
      const at = new URL(request.url ?? "/", "http://localhost").pathname;
      if (at !== path) {
        return refuse(socket, 404, "Not Found", "not_found", `no WebSocket endpoint at ${at}: GraphQL is at ${path}`);
      }
      if (request.headers.upgrade?.toLowerCase() !== "websocket") {
        return refuse(socket, 400, "Bad Request", "bad_request", `${path} upgrades only to a WebSocket (graphql-ws)`);
      }
      wss.handleUpgrade(request, socket, head, (ws) => wss.emit("connection", ws, request));
    },
    close: async () => {
      await server.dispose();
    },
  };
}

type GraphQLErrorLike = Pick<
  GraphQLError,
  "message" | "nodes" | "source" | "positions" | "path" | "originalError" | "extensions"
>;

/**
 * A GraphQLError of any copy of `graphql` (each has extensions): `instanceof` cannot tell, since
 * yoga's and Armor's copy may be the ESM build and graphql-ws's the CommonJS one.
 */
const graphQLErrorLike = (e: unknown): e is GraphQLErrorLike =>
  e instanceof Error && typeof (e as { extensions?: unknown }).extensions === "object";

/** yoga's masking of a fault (the database down is said, as over HTTP), as graphql-ws's GraphQLError. */
const masked = (e: unknown) => local(maskUnlessDatabaseDown(e, "Unexpected error.", false) as GraphQLError);

/** The error as an instance of the class graphql-ws checks (NodeGraphQLError above). */
function local(e: GraphQLErrorLike): GraphQLError {
  return e instanceof NodeGraphQLError
    ? e
    : new NodeGraphQLError(e.message, {
        nodes: e.nodes,
        source: e.source,
        positions: e.positions,
        path: e.path,
        originalError: e.originalError,
        extensions: e.extensions,
      });
}

/**
 * The parsed and validated document, or the errors that refused it: syntax, the nesting scan
 * (a parse step), Armor's limits (validation rules; some throw rather than report).
 */
function checkedDocument(enveloped: Enveloped, payload: SubscribePayload): DocumentNode | GraphQLError[] {
  try {
    const document = enveloped.parse(payload.query);
    const invalid = enveloped.validate(enveloped.schema, document);
    return invalid.length > 0 ? invalid.map(local) : document;
  } catch (e) {
    return [graphQLErrorLike(e) ? local(e) : masked(e)];
  }
}

/** Answers a refused upgrade in the API's JSON error shape and closes the connection. */
function refuse(socket: Duplex, status: number, reason: string, code: ErrorCode, message: string) {
  const body = JSON.stringify(errorBody(code, message));
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
