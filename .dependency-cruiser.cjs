/**
 * The house rules, checked by `npm test` (dependency-cruiser). The repository is npm workspaces:
 * packages/ hold what is shared (the pure domain, the configuration, the counted RPC transport,
 * the verifier) and the clients installed alone (the monitor, the MCP server for agents, the
 * buyer), each used only through the entries its package.json `exports`; the applications
 * (the indexer in src/ with ponder.*.ts, the API in api/, the clients, the page, stack/) depend
 * on packages and never on each other's files, except where Ponder itself joins them (src/api,
 * Ponder's own API entry, mounts api/).
 */
/** Each package's public entries: what its package.json `exports` names. */
const ENTRIES =
  "packages/(core/src/(index|fixtures)|config/src/(index|node)|rpc/src/index|verify/src/(index|node)|(monitor|buy)/src/index)\\.ts$";
/** The clients installed alone (npm pack), each a package with its own bin. */
const CLIENTS = "^packages/(monitor|mcp|buy)/";
const TEST_FILES = "\\.test\\.ts$|\\.test-support\\.ts$";
const APPS = "^(api|src|clients|web|stack|devnet|bench|test|scripts|bin|abis)/|^ponder\\.(config|schema)\\.ts$";

module.exports = {
  forbidden: [
    {
      name: "core-is-pure",
      comment:
        "packages/core (@kusd/core) holds the domain rules: it imports nothing of the repository outside itself (viem, zod and node built-ins only) and reads no configuration",
      severity: "error",
      from: { path: "^packages/core/" },
      to: { path: "^(packages/(?!core/)|(?!packages/|node_modules/)[a-z]+/|ponder\\.)", pathNot: "^node_modules/" },
    },
    {
      name: "config-on-core",
      comment:
        "packages/config (@kusd/config) parses the environment and the network documents into the domain's NetworkConfig: it builds on @kusd/core and @kusd/rpc only",
      severity: "error",
      from: { path: "^packages/config/" },
      to: {
        path: "^(packages/(?!(config|core|rpc)/)|(?!packages/|node_modules/)[a-z]+/|ponder\\.)",
        pathNot: "^node_modules/",
      },
    },
    {
      name: "rpc-stands-alone",
      comment: "packages/rpc (@kusd/rpc) is viem's HTTP transport, counted: it imports nothing of the repository",
      severity: "error",
      from: { path: "^packages/rpc/" },
      to: { path: "^(packages/(?!rpc/)|(?!packages/|node_modules/)[a-z]+/|ponder\\.)", pathNot: "^node_modules/" },
    },
    {
      name: "verifier-stands-alone",
      comment:
        "packages/verify is installed alone (npm pack): it imports the domain, the configuration and itself, nothing of an application; abis/ (the protocol's ABIs, generated data the risk read plan catalogues getters from) is bundled into it",
      severity: "error",
      from: { path: "^packages/verify/" },
      to: { path: `${APPS}|^packages/rpc/`, pathNot: "^abis/[A-Za-z0-9]+\\.ts$" },
    },
    {
      name: "clients-stand-alone",
      comment:
        "packages/monitor, packages/mcp and packages/buy are installed alone (npm pack): each imports @kusd/core, @kusd/config, kusd-verify's public entries and itself, nothing of an application, @kusd/rpc or another client; their tests may also start the destinations' simulated services (test/helpers/receivers)",
      severity: "error",
      from: { path: CLIENTS },
      to: { path: `${APPS}|^packages/(?!(core|config|verify|$1)/)`, pathNot: "^test/helpers/receivers/" },
    },
    {
      name: "clients-ship-no-test-code",
      comment:
        "what a client package ships (its sources but the tests and their *.test-support.ts) imports no test code, its own or the repository's",
      severity: "error",
      from: { path: CLIENTS, pathNot: TEST_FILES },
      to: { path: `^test/|${TEST_FILES}` },
    },
    {
      name: "packages-through-their-entries",
      comment:
        "outside a package, only its public entries are imported (package.json `exports`): @kusd/core (and @kusd/core/fixtures in tests), @kusd/config and @kusd/config/node, @kusd/rpc, kusd-verify's index.ts and node.ts, kusd-monitor's and kusd-buy's index.ts",
      severity: "error",
      from: { path: "^(?!packages/)" },
      to: {
        path: "^packages/",
        pathNot: `^${ENTRIES}`,
      },
    },
    {
      name: "packages-through-each-others-entries",
      comment: "one package imports another through its public entry, as an application does",
      severity: "error",
      from: { path: "^packages/([^/]+)/" },
      to: {
        path: "^packages/",
        pathNot: `^packages/$1/|^${ENTRIES}`,
      },
    },
    {
      name: "fixtures-in-tests-only",
      comment: "@kusd/core/fixtures holds hand-computed test inputs: production code never imports it",
      severity: "error",
      from: { pathNot: "\\.test\\.ts$|\\.test-support\\.ts$|^(test|bench)/" },
      to: { path: "^packages/core/src/fixtures\\.ts$" },
    },
    {
      name: "indexer-never-imports-api",
      comment:
        "the indexer (src/indexing, src/schema-holder, ponder.config.ts, ponder.schema.ts) writes what the API reads; it never imports the API. Only src/api, Ponder's API entry, mounts api/",
      severity: "error",
      from: { path: "^(src/(?!api/)|ponder\\.(config|schema)\\.ts$)" },
      to: { path: "^(api|src/api)/" },
    },
    {
      name: "api-never-imports-indexer",
      comment:
        "the API reads the indexed tables (ponder.schema.ts, their one definition) and never imports the indexer's code or its configuration",
      severity: "error",
      from: { path: "^api/" },
      to: { path: "^src/|^ponder\\.config\\.ts$" },
    },
    {
      name: "production-free-of-devnet",
      comment:
        "only stack/ (npm start), tests and benchmarks use the devnet; the indexer, the API, the packages and the clients read network documents",
      severity: "error",
      from: { path: "^(packages|api|src|clients)/|^ponder\\.(config|schema)\\.ts$" },
      to: { path: "^devnet/" },
    },
    {
      name: "clients-speak-http",
      comment:
        "clients/ call the service over HTTP: they use the packages, never the server's, the indexer's or the stack's code",
      severity: "error",
      from: { path: "^clients/" },
      to: { path: "^(api|src|stack|devnet)/|^ponder\\.(config|schema)\\.ts$" },
    },
    {
      name: "page-speaks-http",
      comment:
        "web/ is the reserves page: it runs in the browser, reads the public API over HTTP and shares only packages (the domain, the verifier)",
      severity: "error",
      from: { path: "^web/" },
      to: { path: "^(api|src|stack|devnet|clients|bench|test)/|^ponder\\.(config|schema)\\.ts$" },
    },
    {
      name: "risk-reads-no-reserves-feature",
      comment:
        "api/reserves/routes.ts warms the risk status's chain part beside /api/por; the risk service reads what it shares with the reserves from api/io (the venue now), so the two feature folders never form a loop",
      severity: "error",
      from: { path: "^api/risk/" },
      to: { path: "^api/reserves/" },
    },
    {
      name: "no-circular-reports",
      comment:
        "the API's files form no import circle, type imports included, so one report file opens without the others: the caches keep the values named in api/report-values.ts, which imports no service, and the services read the context that builds the caches",
      severity: "error",
      from: { path: "^api/" },
      to: { path: "^api/", circular: true },
    },
    {
      name: "no-circular",
      comment:
        "no import cycle that runs: a cycle closed only by `import type` is erased before it runs (api/ allows none at all: no-circular-reports)",
      severity: "error",
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ["type-only"] } },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    // Resolve @kusd/* through their package.json `exports` (symlinked by npm workspaces) to the
    // real files, so the rules above see which entry an import uses.
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "default", "types"] },
    exclude: { path: "^(node_modules|generated|\\.ponder|web/dist|packages/[^/]+/dist)/" },
  },
};
