/** POSTs to a GraphQL endpoint as the e2e tests do: never a 5xx, and `ok` insists on no errors. */
import { expect } from "vitest";

export type GraphQLResult = { data?: any; errors?: { message: string; extensions?: Record<string, unknown> }[] } & {
  extensions?: { sqlQueries?: number };
};

export function graphqlClient(endpoint: string) {
  const gql = async (query: string, variables: Record<string, unknown> = {}): Promise<GraphQLResult> => {
    const res = await fetch(endpoint, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query, variables }),
    });
    expect(res.status).toBeLessThan(500);
    return (await res.json()) as GraphQLResult;
  };
  /** The answer's `data`, failing the test on any error. */
  const ok = async (query: string, variables: Record<string, unknown> = {}): Promise<any> => {
    const r = await gql(query, variables);
    expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
    return r.data;
  };
  return { gql, ok };
}
