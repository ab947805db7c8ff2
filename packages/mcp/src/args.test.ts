import { describe, expect, it } from "vitest";
import { parseMcpArgs } from "./args.js";

const KEY = `0x${"11".repeat(32)}`;
const OPERATOR = "0x209693Bc6afc0C5328bA36FaF03C514EF312287C";

describe("parseMcpArgs", () => {
  it("reads the API, the cap, the trust and the key from its variable", () => {
    expect(
      parseMcpArgs(["--api", "http://127.0.0.1:42069/", "--max-spend", "0.3", "--operator", OPERATOR.toLowerCase()], {
        KUSD_MCP_PRIVATE_KEY: KEY,
      }),
    ).toEqual({
      kind: "serve",
      api: "http://127.0.0.1:42069",
      maxSpend: "0.3",
      trust: { operator: OPERATOR },
      key: KEY,
      keyEnv: "KUSD_MCP_PRIVATE_KEY",
      network: null,
    });
  });

  it("defaults to no cap, no key: free tools only", () => {
    expect(parseMcpArgs(["--api", "https://kusd.example"], {})).toMatchObject({
      maxSpend: "0",
      key: null,
      trust: null,
    });
  });

  it("takes the key from the variable --key-env names", () => {
    expect(
      parseMcpArgs(["--api", "http://a", "--key-env", "AGENT_KEY", "--signer", OPERATOR], { AGENT_KEY: KEY }),
    ).toMatchObject({
      key: KEY,
      keyEnv: "AGENT_KEY",
      trust: { signer: OPERATOR },
    });
  });

  it.each([
    [[], {}, "--api is required"],
    [["--api", "ftp://x"], {}, "an http(s) URL"],
    [["--api", "http://a", "--max-spend", "1,5"], {}, "--max-spend: an amount of USDC"],
    [["--api", "http://a", "--max-spend", "0.0000001"], {}, "at most 6 decimals"],
    [["--api", "http://a", "--operator", "0x1234"], {}, "--operator: not an address"],
    [["--api", "http://a", "--operator", OPERATOR, "--signer", OPERATOR], {}, "not both"],
    [["--api", "http://a"], { KUSD_MCP_PRIVATE_KEY: "0xabc" }, "must hold a private key"],
    [["--api", "http://a", "--max-spend", "1"], { KUSD_MCP_PRIVATE_KEY: KEY }, "give --operator or --signer"],
    [["--api", "http://a", "--max-usd", "1"], {}, "Unknown option"],
  ] as const)("refuses %j", (argv, env, message) => {
    expect(() => parseMcpArgs([...argv], env)).toThrow(message);
  });
});
