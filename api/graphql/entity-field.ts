/**
 * One generic connection field per entity spec: `where: <Type>_filter`, `orderBy: <Type>_orderBy`,
 * `orderDirection`, `first/after`, `last/before`, `block: Block_height`, and the connection with
 * `totalCount`. The filter input and the orderBy enum are generated from the spec's columns, and
 * the resolver runs the same compiler and pager the exports use. An entity's earlier hand-made
 * arguments stay as deprecated aliases that map onto `where`.
 */
import type { ArgBuilder, ArgumentRef, InputFieldRef, ObjectRef, SchemaTypes } from "@pothos/core";
import { and } from "drizzle-orm";
import { BlockHeight } from "./block-height.js";
import { builder } from "./builder.js";
import { connectionOf, OrderDirection } from "./connection.js";
import { ENUM_TYPES } from "./enums.js";
import { resolveBlock } from "./query/block.js";
import type { ColumnSpec, EntitySpec } from "./query/entity.js";
import { orderingOf } from "./query/order.js";
import { entityPage } from "./query/page.js";
import { compileWhere, FILTER_LIMITS, filterKey, opsOf, type WhereInput } from "./query/where.js";
import { asUserErrors } from "./user-errors.js";

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : SchemaTypes;
type InputFields = Record<string, InputFieldRef<Types, unknown>>;

/** Arguments an entity had before `where`, and what each asks for in `where`'s terms. */
export type LegacyArgs = {
  args: (arg: ArgBuilder<Types>) => Record<string, ArgumentRef<Types, unknown>>;
  where: (args: Record<string, unknown>) => WhereInput;
};

function inputType(c: ColumnSpec) {
  switch (c.kind) {
    case "bigint":
      return "BigInt" as const;
    case "int":
      return "Int" as const;
    case "boolean":
      return "Boolean" as const;
    case "enum":
      return c.enumType ? ENUM_TYPES[c.enumType as keyof typeof ENUM_TYPES] : ("String" as const);
    default:
      return "String" as const;
  }
}

const KIND_NOTE: Record<ColumnSpec["kind"], string> = {
  bigint: "",
  int: "",
  text: "",
  "hex-address": " Compared case-insensitively.",
  "hex-hash": " Compared case-insensitively.",
  enum: "",
  boolean: "",
  timestamp: " ISO 8601 or unix seconds.",
};

export function filterInput(spec: EntitySpec) {
  const ref = builder.inputRef<WhereInput>(`${spec.type}_filter`);
  ref.implement({
    description: `Filters of ${spec.connection}, all of which must hold: \`field\` (equals), \`field_not\`, \`field_in\`, \`field_not_in\` (at most ${FILTER_LIMITS.maxInList} values), \`field_gt/_gte/_lt/_lte\` on numbers and times, \`field_contains\`/\`field_starts_with\` on text; \`AND\`/\`OR\` lists nest at most ${FILTER_LIMITS.maxNesting} deep.`,
    fields: (t) => {
      const fields: InputFields = {};
      for (const c of spec.columns) {
        for (const op of opsOf(c.kind)) {
          const type = inputType(c);
          const description = op === "" ? `${c.description}.${KIND_NOTE[c.kind]}` : undefined;
          fields[filterKey(c.name, op)] =
            op === "in" || op === "not_in" ? t.field({ type: [type], description }) : t.field({ type, description });
        }
      }
      fields.AND = t.field({ type: [ref], description: "Every filter of the list holds" });
      fields.OR = t.field({ type: [ref], description: "At least one filter of the list holds" });
      return fields;
    },
  });
  return ref;
}

export function orderByEnum(spec: EntitySpec) {
  return builder.enumType(`${spec.type}_orderBy`, {
    description: `A field of ${spec.type} to sort by; ties are broken by ${spec.key.join(", ")}`,
    values: Object.fromEntries(spec.columns.map((c) => [c.name, { value: c.name, description: c.description }])),
  });
}

// biome-ignore lint/suspicious/noExplicitAny: any Pothos object ref whose backing rows are the spec's rows
export function entityConnection(spec: EntitySpec, node: ObjectRef<any, any>, legacy?: LegacyArgs) {
  const where = filterInput(spec);
  const orderBy = orderByEnum(spec);
  const connection = connectionOf(spec.type, node);
  builder.queryField(spec.connection, (t) =>
    t.field({
      type: connection,
      description: `${spec.description} Ordered by \`orderBy\` (default: ${spec.key.join(", ")}), ascending unless \`orderDirection: desc\`.`,
      args: {
        where: t.arg({ type: where }),
        orderBy: t.arg({ type: orderBy }),
        orderDirection: t.arg({ type: OrderDirection }),
        first: t.arg.int({ description: "Page size from the start (or after `after`), 1 to 500; default 50" }),
        after: t.arg.string(),
        last: t.arg.int({ description: "Page size from the end (or before `before`), 1 to 500" }),
        before: t.arg.string(),
        block: t.arg({ type: BlockHeight }),
        ...(legacy?.args(t.arg) ?? {}),
      },
      resolve: (_root, args, { reports }) =>
        asUserErrors(async () => {
          const a = args as Record<string, unknown> & Parameters<typeof entityPage>[2];
          const block = await resolveBlock(reports, args.block);
          const source = spec.source(block);
          const conditions = and(
            compileWhere(spec, source, args.where),
            legacy ? compileWhere(spec, source, defined(legacy.where(a)), "filter") : undefined,
          );
          const ordering = orderingOf(spec, args.orderBy, args.orderDirection);
          return entityPage(reports.db, { source, where: conditions, ordering }, a);
        }),
    }),
  );
}

/** A legacy argument left out or null asked for nothing (in `where`, null asks for null). */
function defined(where: WhereInput): WhereInput {
  return Object.fromEntries(Object.entries(where).filter(([, v]) => v !== null && v !== undefined));
}
