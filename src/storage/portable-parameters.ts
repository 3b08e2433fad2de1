import {
  CastNode,
  DataTypeNode,
  OperationNodeTransformer,
  PrimitiveValueListNode,
  ValueListNode,
  ValueNode,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';
import type { Dialect } from './database.ts';

const INT4_MAX = 2_147_483_647;
const INT4_MIN = -2_147_483_648;
const NUL = /\u0000/g;

function outsideInt4(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && (value > INT4_MAX || value < INT4_MIN);
}

/**
 * Whether any parameter of the query needs rewriting. Almost no query does, and a scan is
 * much cheaper than the copy the transformer makes of the whole query.
 */
function needsRewrite(node: unknown, special: (value: unknown) => boolean): boolean {
  if (node === null || typeof node !== 'object') return false;
  if (Array.isArray(node)) return node.some((item) => needsRewrite(item, special));
  const kind = (node as { kind?: string }).kind;
  if (kind === 'ValueNode') return special((node as ValueNode).value);
  if (kind === 'PrimitiveValueListNode') return (node as PrimitiveValueListNode).values.some(special);
  for (const key in node) if (needsRewrite((node as Record<string, unknown>)[key], special)) return true;
  return false;
}

class ParameterTransformer extends OperationNodeTransformer {
  constructor(private readonly wideIntegers: boolean) {
    super();
  }

  readonly special = (value: unknown): boolean => (typeof value === 'string' && value.includes('\u0000')) || (this.wideIntegers && outsideInt4(value));

  protected override transformValue(node: ValueNode): ValueNode {
    if (typeof node.value === 'string' && node.value.includes('\u0000')) return ValueNode.create(node.value.replace(NUL, ''));
    if (this.wideIntegers && outsideInt4(node.value)) {
      // The compiler renders any node in a value's place; the types only know values there.
      return CastNode.create(node, DataTypeNode.create('bigint')) as unknown as ValueNode;
    }
    return node;
  }

  protected override transformPrimitiveValueList(node: PrimitiveValueListNode): PrimitiveValueListNode {
    if (!node.values.some(this.special)) return node;
    return ValueListNode.create(node.values.map((value) => this.transformValue(ValueNode.create(value)))) as unknown as PrimitiveValueListNode;
  }
}

/**
 * Makes every query parameter mean the same on both dialects, whatever a client sent:
 * - NUL characters are dropped from text: PostgreSQL refuses them in text values (an error
 *   instead of a stored title or a failed lookup), SQLite's string functions stop at them.
 * - On PostgreSQL, an integer beyond its `integer` range goes out as `bigint`: compared with an
 *   `integer` column it would otherwise be refused ("out of range") instead of matching nothing,
 *   as on SQLite. Clients may send any id.
 */
export class PortableParameters implements KyselyPlugin {
  readonly #transformer: ParameterTransformer;

  constructor(dialect: Dialect) {
    this.#transformer = new ParameterTransformer(dialect === 'postgres');
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return needsRewrite(args.node, this.#transformer.special) ? this.#transformer.transformNode(args.node) : args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}
