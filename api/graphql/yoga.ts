/**
 * graphql-yoga over the Pothos schema, served at /graphql (GraphiQL in a browser; queries over
 * POST/GET; subscriptions as server-sent events). Internal errors are masked.
 */
import { createYoga } from "graphql-yoga";
import type { ReportContext } from "../reports/context.js";
import { schema } from "./schema.js";

export function createGraphQL(reports: ReportContext) {
  return createYoga<{ signal?: AbortSignal }>({
    schema,
    graphqlEndpoint: "/graphql",
    maskedErrors: true,
    landingPage: false,
    context: ({ request }) => ({ reports, signal: request.signal }),
  });
}
