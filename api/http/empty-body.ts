/**
 * Some libraries refuse with an empty body (x402's `402 {}`, graphql-yoga's 415): the answer
 * keeps its status and headers and gets a JSON body that says what was wrong.
 */
export async function withBodyIfEmpty(res: Response, body: () => unknown): Promise<Response> {
  const text = (await res.clone().text()).trim();
  if (text !== "" && text !== "{}") return res;
  const headers = new Headers(res.headers);
  headers.set("content-type", "application/json");
  headers.delete("content-length");
  return new Response(JSON.stringify(body()), { status: res.status, headers });
}
