import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { EXAMPLE_QUERIES } from "./examples.js";
import { createGraphQL } from "./yoga.js";

describe("the documented example queries (GraphiQL's tabs)", () => {
  // The examples are documented in docs/graphql.md (moved there from README.md).
  const readme = readFileSync(new URL("../../docs/graphql.md", import.meta.url), "utf8");

  it("are docs/graphql.md's text, title and query", () => {
    for (const e of EXAMPLE_QUERIES) {
      expect(readme).toContain(e.query);
      expect(readme).toContain(e.title);
    }
  });

  it("pass the schema's validation and every limit (no database here: execution itself is not the point)", async () => {
    const yoga = createGraphQL({ db: {} } as never);
    for (const e of EXAMPLE_QUERIES) {
      const res = await yoga.fetch(
        new Request("http://x/graphql", {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json" },
          body: JSON.stringify({ query: e.query }),
        }),
      );
      const body = (await res.json()) as { errors?: { message: string; extensions?: { code?: string } }[] };
      // Masked execution errors (no database) are INTERNAL_SERVER_ERROR; a refusal has any other code.
      const refused = (body.errors ?? []).filter((x) => x.extensions?.code !== "INTERNAL_SERVER_ERROR");
      expect(refused, e.title).toEqual([]);
    }
  });
});

describe("GraphiQL at /graphql", () => {
  it("is served from local assets (no CDN) with the examples as tabs", async () => {
    const yoga = createGraphQL({ db: {} } as never);
    const res = await yoga.fetch(new Request("http://x/graphql", { headers: { accept: "text/html" } }));
    expect(res.status).toBe(200);
    const html = await res.text();
    // Every script and stylesheet is inline: no src= or href= pointing off this server.
    expect(html).not.toMatch(/<script[^>]+src=["']https?:/);
    expect(html).not.toMatch(/<link[^>]+href=["']https?:/);
    expect(html).not.toMatch(/unpkg\.com|cdn\.jsdelivr\.net/);
    for (const e of EXAMPLE_QUERIES) expect(html).toContain(JSON.stringify(e.title).slice(1, -1));
  });
});
