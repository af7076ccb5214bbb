/**
 * Generates the client's public route types (`src/types/*.ts`) from the contract: one plain named
 * type per request body, query and success or error body, and one route table per domain.
 * A nested shape built from a schema the contract exports (`Amount`, `Phone`, the `Payment` inside
 * a webhook event, ...) is declared once under that export's name and referenced, not written out
 * again at every use (docs/type-check-budget.md). The name comes from the schema itself, found by
 * identity in the zod tree, never from another export that merely reads alike: a new schema of the
 * same shape can neither take a type's name nor make one vanish. Every route's path parameters,
 * body, query and answers are declared under their schema's name. So are the parts every route
 * shares: the routers' common error responses (`CommonErrorResponses`) and API-key headers
 * (`KeyHeaders`, extended by a route's own headers); and a declared object holding every member
 * of another (six or more) extends it (`interface BeneficialOwner extends IndividualDetail`).
 *
 * Why: ts-rest's inferred client types walk the zod generics of the whole contract, and a
 * consumer type-checking with `skipLibCheck: false` (TypeScript's default) re-checks every
 * contract `.d.ts` it loads (megabytes of inlined zod types). The client's published
 * declarations reference these generated files only, so a consumer's program never loads the
 * contract, zod or ts-rest declarations. The TypeScript checker itself prints every type from
 * ts-rest's inference over the built contract, so nothing is retyped by hand;
 * `src/route-types.test-d.ts` proves the resulting client equals ts-rest's, route by route.
 *
 * Needs the contract's `dist/` (the checker resolves `@switchyard/contract` as a consumer does,
 * and reads `dist/shared/` for the shared vocabulary no entry point re-exports).
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import { z } from 'zod';
import type { AppRoute, AppRouter } from '@ts-rest/core';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
export const TYPES_DIR = path.join(packageDir, 'src', 'types');

/** The client's domains: the contract entry point each comes from and the router it exports. */
export const DOMAINS = [
  { module: 'customers', router: 'customersContract', routes: 'CustomersRoutes', load: () => import('@switchyard/contract/customers') },
  { module: 'checkout', router: 'checkoutContract', routes: 'CheckoutRoutes', load: () => import('@switchyard/contract/checkout') },
  { module: 'payment-methods', router: 'paymentMethodsContract', routes: 'PaymentMethodsRoutes', load: () => import('@switchyard/contract/payment-methods') },
  { module: 'payments', router: 'paymentsContract', routes: 'PaymentsRoutes', load: () => import('@switchyard/contract/payments') },
  { module: 'subscriptions', router: 'subscriptionsContract', routes: 'SubscriptionsRoutes', load: () => import('@switchyard/contract/subscriptions') },
  { module: 'marketplace', router: 'marketplaceContract', routes: 'MarketplaceRoutes', load: () => import('@switchyard/contract/marketplace') },
  { module: 'banking', router: 'bankingContract', routes: 'BankingRoutes', load: () => import('@switchyard/contract/banking') },
  { module: 'webhooks', router: 'webhooksContract', routes: 'WebhooksRoutes', load: () => import('@switchyard/contract/webhooks') },
  { module: 'sandbox', router: 'sandboxContract', routes: 'SandboxRoutes', load: () => import('@switchyard/contract/sandbox') },
] as const;

/**
 * Schemas the client names outside any route (`parseWebhookEvent` resolves to a `WebhookEvent`),
 * each with the export holding the schemas it is made of: `WebhookEvent` parses each event with
 * the schema of `WEBHOOK_EVENT_SCHEMAS` its name selects, which no zod reference leads to.
 */
const EXTRA_OUTPUTS = [{ exportName: 'WebhookEvent', partsFrom: 'WEBHOOK_EVENT_SCHEMAS' }] as const;

/** Types exported only by the contract's root entry point, and shapes several domains use, land in this file. */
const SHARED = 'shared';

/** How many members a declared object needs before another object that has them all is written as extending it. */
const MIN_BASE_MEMBERS = 6;

type Direction = 'input' | 'output';

interface NamedSchema {
  /** The contract export the type is named after. */
  exportName: string;
  /** Generated file (domain module, or `shared`) that declares it, when a route table names it. */
  owner: string;
  /** The namespace the checker's virtual file imports the export's module under. */
  ns: string;
}

type Loaded = Record<string, unknown>;

/**
 * Names a type by reference where one is declared for it (returns the reference), or not (undefined);
 * `base` names the declared object an object type extends (its members, written alike, and more).
 */
type Refer = ((type: ts.Type) => string | undefined) & { base?: (type: ts.Type) => { name: string; members: ReadonlySet<string> } | undefined };

/** A module of the built contract whose schemas lend their names: how the checker imports it, and its exports. */
interface ContractModule {
  ns: string;
  specifier: string;
  owner: string;
  exports: Loaded;
}

/**
 * The entry points (domains first, then the root), then the contract's shared vocabulary
 * (`src/shared/*.ts`: `Address`, `AmountOut`, `Phone`, ...), which no entry point re-exports
 * but every domain's schemas are built from: read from the built files, as the entry points import them.
 */
async function loadContract(): Promise<{ root: Loaded; domains: Map<string, Loaded>; modules: ContractModule[] }> {
  const root = (await import('@switchyard/contract')) as Loaded;
  const domains = new Map<string, Loaded>();
  const modules: ContractModule[] = [];
  for (const d of DOMAINS) {
    const exports = (await d.load()) as Loaded;
    domains.set(d.module, exports);
    modules.push({ ns: identifier(d.module), specifier: `@switchyard/contract/${d.module}`, owner: d.module, exports });
  }
  modules.push({ ns: 'shared', specifier: '@switchyard/contract', owner: SHARED, exports: root });
  const sharedDir = path.join(path.dirname(fileURLToPath(import.meta.resolve('@switchyard/contract'))), 'shared');
  for (const file of readdirSync(sharedDir).filter((f) => f.endsWith('.js')).sort()) {
    const specifier = path.join(sharedDir, file);
    const exports = (await import(pathToFileURL(specifier).href)) as Loaded;
    modules.push({ ns: `vocabulary_${identifier(file.replace(/\.js$/, '')).replace(/\W/g, '_')}`, specifier, owner: SHARED, exports });
  }
  return { root, domains, modules };
}

/** Every exported zod schema, named after its export and owned by the first module that exports it. */
function namedSchemas(modules: readonly ContractModule[]): Map<z.ZodTypeAny, NamedSchema> {
  const named = new Map<z.ZodTypeAny, NamedSchema>();
  for (const m of modules) {
    for (const [exportName, value] of Object.entries(m.exports)) {
      if (value instanceof z.ZodType && !named.has(value)) named.set(value, { exportName, owner: m.owner, ns: m.ns });
    }
  }
  return named;
}

/**
 * The named schemas a schema is built from, by identity: every exported schema its zod tree
 * holds, at any depth. A nested shape may be written under one of these names only, never under
 * the name of another schema that merely reads alike (which a new route could bring, and take the
 * name over).
 */
function namedParts(schemas: readonly unknown[], named: ReadonlyMap<z.ZodTypeAny, NamedSchema>): Set<NamedSchema> {
  const found = new Set<NamedSchema>();
  const seen = new Set<unknown>();
  const walk = (schema: unknown): void => {
    if (!(schema instanceof z.ZodType) || seen.has(schema)) return;
    seen.add(schema);
    const n = named.get(schema);
    if (n) found.add(n);
    const def = schema._def as Record<string, unknown>;
    for (const key of ['innerType', 'type', 'schema', 'in', 'out', 'keyType', 'valueType', 'catchall', 'left', 'right', 'rest']) walk(def[key]);
    for (const option of (def.options as unknown[] | undefined) ?? []) walk(option);
    for (const item of Array.isArray(def.items) ? def.items : []) walk(item);
    if (schema instanceof z.ZodObject) for (const value of Object.values(schema.shape as Record<string, unknown>)) walk(value);
    if (schema instanceof z.ZodLazy) walk(schema.schema);
  };
  for (const schema of schemas) walk(schema);
  return found;
}

/** A TypeScript program over the built contract with one virtual file of type aliases to print. */
class TypePrinter {
  private readonly aliases: string[] = [];
  private readonly virtualPath = path.join(packageDir, '__route-types__.ts');

  constructor(private readonly modules: readonly ContractModule[]) {}

  /** Registers a type expression; returns the alias it will be readable under. */
  add(expression: string): string {
    const alias = `T${this.aliases.length}`;
    this.aliases.push(`export type ${alias} = ${expression};`);
    return alias;
  }

  compile(): CompiledTypes {
    const source = [
      "import type { ClientInferResponseBody, PartialClientInferRequest } from '@ts-rest/core';",
      "import type { z } from 'zod';",
      "import type { TransportArgs } from './src/client.js';",
      ...this.modules.map((m) => `import type * as ${m.ns} from '${m.specifier}';`),
      ...this.aliases,
    ].join('\n');
    const configPath = path.join(packageDir, 'tsconfig.json');
    const config = ts.getParsedCommandLineOfConfigFile(configPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
    if (!config) throw new Error(`cannot read ${configPath}`);
    const options = { ...config.options, noEmit: true, skipLibCheck: true, types: [] };
    const host = ts.createCompilerHost(options);
    const getSourceFile = host.getSourceFile.bind(host);
    host.getSourceFile = (file, language, ...rest) =>
      path.resolve(file) === this.virtualPath ? ts.createSourceFile(file, source, language, true) : getSourceFile(file, language, ...rest);
    const fileExists = host.fileExists.bind(host);
    host.fileExists = (file) => path.resolve(file) === this.virtualPath || fileExists(file);
    const program = ts.createProgram([this.virtualPath], options, host);
    const file = program.getSourceFile(this.virtualPath);
    if (!file) throw new Error('virtual source missing');
    const errors = ts.getPreEmitDiagnostics(program, file);
    if (errors.length > 0) throw new Error(errors.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')).join('\n'));
    return new CompiledTypes(program.getTypeChecker(), file);
  }
}

class CompiledTypes {
  private readonly byAlias = new Map<string, ts.Type>();
  private readonly plain = new Map<ts.Type, string>();

  constructor(
    private readonly checker: ts.TypeChecker,
    file: ts.SourceFile,
  ) {
    for (const statement of file.statements) {
      if (ts.isTypeAliasDeclaration(statement)) this.byAlias.set(statement.name.text, checker.getTypeAtLocation(statement.name));
    }
  }

  type(alias: string): ts.Type {
    const type = this.byAlias.get(alias);
    if (!type) throw new Error(`no alias ${alias}`);
    return type;
  }

  /**
   * The structure of a type as TypeScript source. Written out member by member rather than with
   * `typeToString`, which prints zod's own aliases (`objectOutputType<…>`) where they apply: the
   * generated files must not refer to zod, ts-rest or the contract.
   */
  render(type: ts.Type, refer?: Refer): string {
    // Without references a type always reads the same: cached, as every nested type is looked up by its text.
    if (refer) return this.write(type, refer);
    let text = this.plain.get(type);
    if (text === undefined) this.plain.set(type, (text = this.write(type)));
    return text;
  }

  private write(type: ts.Type, refer?: Refer): string {
    const c = this.checker;
    // A nested type the caller names is written as that name; the type itself never is.
    const nested = (t: ts.Type) => refer?.(t) ?? this.render(t, refer);
    const f = ts.TypeFlags;
    if (type.flags & (f.Any | f.Unknown | f.String | f.Number | f.BigInt | f.Boolean | f.Null | f.Undefined | f.Void | f.Never | f.Literal)) {
      return c.typeToString(type, undefined, ts.TypeFormatFlags.UseSingleQuotesForStringLiteralType);
    }
    if (type.isUnion()) {
      const parts = type.types.map(nested);
      // `boolean` is the union `false | true` to the checker.
      const bool = parts.includes('false') && parts.includes('true');
      const unique = [...new Set(parts.map((p) => (bool && (p === 'false' || p === 'true') ? 'boolean' : p)))];
      // `null` and `undefined` last, as one would write them.
      const rank = (p: string) => (p === 'undefined' ? 2 : p === 'null' ? 1 : 0);
      return unique.sort((a, b) => rank(a) - rank(b)).join(' | ');
    }
    if (type.isIntersection()) return type.types.map((t) => this.grouped(t, nested)).join(' & ');
    if (c.isArrayType(type)) {
      const [element] = c.getTypeArguments(type as ts.TypeReference);
      const readonly = type.getSymbol()?.name === 'ReadonlyArray' ? 'readonly ' : '';
      return `${readonly}${this.grouped(element as ts.Type, nested)}[]`;
    }
    if (c.isTupleType(type)) return `[${c.getTypeArguments(type as ts.TypeReference).map(nested).join(', ')}]`;
    if (type.flags & f.Object) {
      if (type.getCallSignatures().length > 0 || type.getConstructSignatures().length > 0) throw new Error(`a schema type has signatures: ${c.typeToString(type)}`);
      const base = c.getIndexInfosOfType(type).length === 0 ? refer?.base?.(type) : undefined;
      const members = [
        ...c.getIndexInfosOfType(type).map((info) => `${info.isReadonly ? 'readonly ' : ''}[key: ${c.typeToString(info.keyType)}]: ${nested(info.type)};`),
        ...c
          .getPropertiesOfType(type)
          .filter((p) => !base?.members.has(p.name))
          .map((p) => this.property(p, undefined, refer)),
      ];
      const own = members.length === 0 ? '{}' : `{\n${members.join('\n')}\n}`;
      return base ? `${base.name} & ${own}` : own;
    }
    throw new Error(`cannot render ${c.typeToString(type)}`);
  }

  /** `name?: type;` for one property, with its optionality. */
  property(symbol: ts.Symbol, rendered?: string, refer?: Refer): string {
    const optional = (symbol.flags & ts.SymbolFlags.Optional) !== 0;
    const name = /^[A-Za-z_$][\w$]*$/.test(symbol.name) || /^\d+$/.test(symbol.name) ? symbol.name : `'${symbol.name}'`;
    const type = this.checker.getTypeOfSymbol(symbol);
    return `${name}${optional ? '?' : ''}: ${rendered ?? refer?.(type) ?? this.render(type, refer)};`;
  }

  /**
   * The request members ts-rest infers for a route (`params`, `query`, `body`, `headers`, with
   * their optionality); a member whose schema the contract names refers to that name instead.
   */
  requestMembers(type: ts.Type, named: Partial<Record<string, string>>, refer?: Refer): string[] {
    return this.checker
      .getPropertiesOfType(type)
      .filter((p) => ['params', 'query', 'body', 'headers'].includes(p.name))
      .map((p) => {
        const name = named[p.name];
        // An optional member's type carries the `undefined` of its optionality, as the checker reports it.
        return this.property(p, name && (p.flags & ts.SymbolFlags.Optional) !== 0 ? `${name} | undefined` : name, refer);
      });
  }

  /** A request member's type without the `undefined` of its optionality (`headers` as an object), or undefined where the request has no such member. */
  member(type: ts.Type, name: string): ts.Type | undefined {
    const symbol = this.checker.getPropertyOfType(type, name);
    return symbol && this.checker.getNonNullableType(this.checker.getTypeOfSymbol(symbol));
  }

  isIndexed(type: ts.Type): boolean {
    return this.checker.getIndexInfosOfType(type).length > 0;
  }

  isArray(type: ts.Type): boolean {
    return this.checker.isArrayType(type) || this.checker.isTupleType(type);
  }

  /** An object type's properties, each by name with its line as `property` writes it. */
  properties(type: ts.Type): { name: string; line: string }[] {
    return this.checker.getPropertiesOfType(type).map((p) => ({ name: p.name, line: this.property(p) }));
  }

  /** A member of an array or intersection, parenthesised where a union would bind wrongly. */
  private grouped(type: ts.Type, nested: (t: ts.Type) => string): string {
    const text = nested(type);
    return type.isUnion() && text.includes(' | ') ? `(${text})` : text;
  }
}

function identifier(module: string): string {
  return module.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());
}

/** Builds every generated file: path relative to `src/types/` → content. */
export async function buildRouteTypes(): Promise<Map<string, string>> {
  const { root, domains, modules } = await loadContract();
  const named = namedSchemas(modules);
  const printer = new TypePrinter(modules);
  const wanted = new Map<string, { named: NamedSchema; direction: Direction; alias: string }>();

  const want = (schema: z.ZodTypeAny, direction: Direction): string => {
    const n = named.get(schema);
    if (!n) throw new Error('unnamed schema');
    const key = `${direction}:${n.owner}:${n.exportName}`;
    if (!wanted.has(key)) wanted.set(key, { named: n, direction, alias: printer.add(`z.${direction}<typeof ${n.ns}.${n.exportName}>`) });
    return key;
  };

  // What the routers add to every route (`v1RouterOptions`): the API-key headers and the error
  // responses. Declared once in shared.ts and referenced, not written out again in every route.
  const options = modules.map((m) => m.exports.v1RouterOptions).find((o) => o !== undefined) as
    | { baseHeaders: z.AnyZodObject; commonResponses: Record<string, z.ZodTypeAny> }
    | undefined;
  if (!options) throw new Error('the contract has no v1RouterOptions');
  const commonErrors = Object.entries(options.commonResponses).map(([status, schema]) => ({ status, key: want(schema, 'output') }));
  const baseHeaderNames = Object.keys(options.baseHeaders.shape);

  // Every type to print is registered first: the checker compiles them all in one program.
  const plan = DOMAINS.map((d) => {
    const router = domains.get(d.module)?.[d.router] as AppRouter | undefined;
    if (!router) throw new Error(`@switchyard/contract/${d.module} exports no ${d.router}`);
    const routeRef = (name: string) => `(typeof ${identifier(d.module)}.${d.router})['${name}']`;
    const routes = Object.entries(router).map(([name, value]) => {
      const route = value as AppRoute;
      const requestAlias = printer.add(`PartialClientInferRequest<${routeRef(name)}, TransportArgs>`);
      const bodySchema = 'body' in route ? (route.body as unknown) : undefined;
      const querySchema = route.query as unknown;
      const namedBody = bodySchema instanceof z.ZodType && named.has(bodySchema) ? want(bodySchema, 'input') : undefined;
      const namedQuery = querySchema instanceof z.ZodType && named.has(querySchema) ? want(querySchema, 'input') : undefined;
      const paramsSchema = route.pathParams as unknown;
      const namedParams = paramsSchema instanceof z.ZodType && named.has(paramsSchema) ? want(paramsSchema, 'input') : undefined;
      // The names a route's nested shapes may take: the schemas the route is built from.
      const parts = namedParts([bodySchema, querySchema, paramsSchema, route.headers, ...Object.values(route.responses)], named);
      // A route answering every common error as the routers declare it refers to `CommonErrorResponses`.
      const sharesErrors = Object.entries(options.commonResponses).every(([status, schema]) => (route.responses as Record<string, unknown>)[status] === schema);
      const own = Object.entries(route.responses).filter(([status]) => !(sharesErrors && status in options.commonResponses));
      const responses = own.map(([status, schema]) => {
        if (schema instanceof z.ZodType && named.has(schema)) return { status, key: want(schema, 'output'), array: false };
        if (schema instanceof z.ZodArray && named.has(schema.element as z.ZodTypeAny)) return { status, key: want(schema.element as z.ZodTypeAny, 'output'), array: true };
        return { status, alias: printer.add(`ClientInferResponseBody<${routeRef(name)}, ${status}>`) };
      });
      return { name, route, requestAlias, namedBody, namedQuery, namedParams, parts, responses, sharesErrors };
    });
    return { domain: d, routes };
  });
  /** Of a declared schema (by its named entry), the named schemas it is built from. */
  const schemaOf = new Map([...named].map(([schema, n]) => [n, schema]));
  const extraParts = new Map<NamedSchema, Set<NamedSchema>>();
  for (const { exportName, partsFrom } of EXTRA_OUTPUTS) {
    const schema = root[exportName];
    if (!(schema instanceof z.ZodType)) throw new Error(`@switchyard/contract exports no schema ${exportName}`);
    extraParts.set(named.get(schema) as NamedSchema, namedParts(Object.values(root[partsFrom] as Record<string, unknown>), named));
    want(schema, 'output');
  }
  const partsOf = (n: NamedSchema) => {
    const parts = extraParts.get(n) ?? namedParts([schemaOf.get(n)], named);
    parts.delete(n);
    return parts;
  };

  // Every other named schema, both ways: a candidate name for the same shape nested anywhere.
  const primary = new Set(wanted.keys());
  const all = new Map(wanted);
  for (const n of named.values()) {
    for (const direction of ['output', 'input'] as const) {
      const key = `${direction}:${n.owner}:${n.exportName}`;
      if (!all.has(key)) all.set(key, { named: n, direction, alias: printer.add(`z.${direction}<typeof ${n.ns}.${n.exportName}>`) });
    }
  }

  const compiled = printer.compile();
  const typeOf = (key: string) => compiled.type((all.get(key) as { alias: string }).alias);

  // Shapes by their text, best name first: the names the route tables already use, then the
  // contract's shared vocabulary, then the domains'; an output before an input of the same rank.
  const directionOf = (key: string) => all.get(key)?.direction as Direction;
  const rank = (key: string) => (primary.has(key) ? 0 : all.get(key)?.named.owner === SHARED ? 2 : 4) + (directionOf(key) === 'output' ? 0 : 1);
  const textOf = new Map<string, string>();
  const byText = new Map<string, string[]>();
  for (const key of all.keys()) {
    let text: string;
    try {
      text = compiled.render(typeOf(key));
    } catch (error) {
      // A schema the renderer cannot write (none a route uses) is no candidate.
      if (primary.has(key)) throw error;
      continue;
    }
    textOf.set(key, text);
    // Only objects (and what contains them) are worth a name: a `string` is no `PaymentId`.
    if (text.includes('\n')) byText.set(text, [...(byText.get(text) ?? []), key]);
  }
  for (const keys of byText.values()) keys.sort((a, b) => rank(a) - rank(b));

  // Declarations, from the route tables' names down to every shape they contain (names as tokens until all are known).
  const token = (key: string) => `«${key}»`;
  const decls = new Map<string, { text: string; refs: Set<string> }>();
  const queue = [...primary];
  // Objects other objects may extend: declared ones of MIN_BASE_MEMBERS members or more, by their
  // members as written. A smaller one (`Amount`) is too little to be worth an `extends`.
  const bases = [...byText.values()]
    .map((keys) => keys[0] as string)
    .flatMap((key) => {
      const type = typeOf(key);
      if (!(type.flags & ts.TypeFlags.Object) || type.isUnion() || type.isIntersection() || compiled.isIndexed(type)) return [];
      const props = compiled.properties(type);
      return props.length >= MIN_BASE_MEMBERS ? [{ key, lines: new Set(props.map((p) => p.line)), members: new Set(props.map((p) => p.name)) }] : [];
    })
    .sort((a, b) => b.members.size - a.members.size);
  /** The largest declared object whose every member the type has, written alike, and which has fewer members. */
  const baseOf = (type: ts.Type, self: string) => {
    if (!(type.flags & ts.TypeFlags.Object) || compiled.isArray(type)) return undefined;
    const props = compiled.properties(type);
    const lines = new Set(props.map((p) => p.line));
    // The shared vocabulary never extends a domain's shape: `AddressOut` is no kind of `BankingAddressOut`.
    const fromShared = all.get(self)?.named.owner === SHARED;
    return bases.find(
      (b) =>
        b.key !== self &&
        !(fromShared && all.get(b.key)?.named.owner !== SHARED) &&
        b.members.size < props.length &&
        [...b.lines].every((l) => lines.has(l)),
    );
  };
  /**
   * Names nested shapes while one declaration or route table is written: a shape that reads
   * exactly like one of the named schemas `parts` (the ones it is built from) is written as that
   * name; the name of any other schema never is.
   */
  const referFor = (direction: Direction, refs: Set<string>, parts: ReadonlySet<NamedSchema>, self?: string): Refer =>
    Object.assign(
      (type: ts.Type) => {
        const text = compiled.render(type);
        const keys = byText.get(text)?.filter((k) => k !== self && parts.has(all.get(k)?.named as NamedSchema));
        if (!keys || keys.length === 0) return undefined;
        // The name of the side being written (`…Input` in a request) where the shape has one, else the best ranked.
        const key = keys.find((k) => directionOf(k) === direction) ?? (keys[0] as string);
        refs.add(key);
        queue.push(key);
        return token(key);
      },
      {
        // Only a declaration extends: `interface A extends B` is the same type as A written out, while
        // an anonymous `B & {…}` nested in a route is not identical to it (the type tests compare with `toEqualTypeOf`).
        base: (type: ts.Type) => {
          const base = self !== undefined && type === typeOf(self) ? baseOf(type, self) : undefined;
          if (!base) return undefined;
          refs.add(base.key);
          queue.push(base.key);
          return { name: token(base.key), members: base.members };
        },
      },
    );
  // The shared parts, by key: `CommonErrorResponses`, and one headers type per set of headers
  // routes take (`KeyHeaders`, then `KeyHeaders` with a route's own headers, named after their schema).
  const commonDecls = new Map<string, { name: string; text: string; refs: Set<string>; doc: string }>();
  const errorsKey = 'common:CommonErrorResponses';
  const keyHeadersKey = 'common:KeyHeaders';
  commonDecls.set(errorsKey, {
    name: 'CommonErrorResponses',
    text: `export interface CommonErrorResponses {\n${commonErrors.map((e) => `${e.status}: ${token(e.key)};`).join('\n')}\n}`,
    refs: new Set(commonErrors.map((e) => e.key)),
    doc: "/** The errors every route answers with, by status: the contract's `commonErrorResponses`, which its routers add to each route. */",
  });
  queue.push(...commonErrors.map((e) => e.key));
  let baseHeaderLines: string | undefined;
  /** A route's own headers (beyond the API keys), as written, → the key of the type that holds them. */
  const headerTypes = new Map<string, string>();
  /** The key of the named type for a route's headers, or undefined where they are written out in the route. */
  const headersKey = (headers: ts.Type): string | undefined => {
    const props = compiled.properties(headers);
    const base = props.filter((p) => baseHeaderNames.includes(p.name)).map((p) => p.line);
    if (base.length !== baseHeaderNames.length) return undefined;
    baseHeaderLines ??= base.join('\n');
    if (base.join('\n') !== baseHeaderLines) return undefined;
    const extra = props.filter((p) => !baseHeaderNames.includes(p.name));
    if (extra.length === 0) return keyHeadersKey;
    const lines = extra.map((p) => p.line).join('\n');
    // Headers that read alike share one type (`UuidIdempotencyKeyHeader` is a string to the client too): the first name wins.
    const found = headerTypes.get(lines);
    if (found) return found;
    // The router merges its base headers into a route's own, so the route holds an unnamed schema:
    // the name is that of the contract's headers schema with exactly the route's other headers.
    const extraNames = extra.map((p) => p.name).sort().join();
    const schema = [...named].find(([s]) => s instanceof z.ZodObject && Object.keys((s as z.AnyZodObject).shape).sort().join() === extraNames)?.[1];
    if (!schema) return undefined;
    const name = `${schema.exportName}s`;
    const key = `headers:${name}`;
    commonDecls.set(key, {
      name,
      text: `export interface ${name} extends ${token(keyHeadersKey)} {\n${lines}\n}`,
      refs: new Set([keyHeadersKey]),
      doc: `/** The API keys with the contract's \`${schema.exportName}\`, as a call may give them: the client sends its own keys where a call leaves them out. */`,
    });
    headerTypes.set(lines, key);
    return key;
  };

  // One route table per domain.
  const tables = plan.map(({ domain, routes }) => {
    const refs = new Set<string>();
    const entries: string[] = [];
    for (const r of routes) {
      const body = r.namedBody;
      const query = r.namedQuery;
      const params = r.namedParams;
      for (const k of [body, query, params]) if (k) refs.add(k);
      const requestType = compiled.type(r.requestAlias);
      const headersType = compiled.member(requestType, 'headers');
      const headers = headersType && headersKey(headersType);
      if (headers) refs.add(headers);
      const request = compiled.requestMembers(
        requestType,
        { body: body && token(body), query: query && token(query), params: params && token(params), headers: headers && token(headers) },
        referFor('input', refs, r.parts),
      );
      const responses = r.responses.map((s) => {
        if ('key' in s && s.key) {
          refs.add(s.key);
          return `${s.status}: ${token(s.key)}${s.array ? '[]' : ''};`;
        }
        return `${s.status}: ${compiled.render(compiled.type((s as { alias: string }).alias), referFor('output', refs, r.parts))};`;
      });
      if (r.sharesErrors) refs.add(errorsKey);
      const summary = r.route.summary ? `: ${r.route.summary}` : '';
      entries.push(
        `/** ${r.route.method} ${r.route.path}${summary}. */\n${r.name}: {\nrequest: {\n${request.join('\n')}\n};\nresponses: ${r.sharesErrors ? `${token(errorsKey)} & ` : ''}{\n${responses.join('\n')}\n};\n};`,
      );
    }
    return {
      domain,
      refs,
      text: `/** The ${domain.module} routes as the client calls them: what each one takes and answers per status. */\nexport interface ${domain.routes} {\n${entries.join('\n')}\n}`,
    };
  });
  if (baseHeaderLines !== undefined) {
    commonDecls.set(keyHeadersKey, {
      name: 'KeyHeaders',
      text: `export interface KeyHeaders {\n${baseHeaderLines}\n}`,
      refs: new Set(),
      doc: `/** The API keys every route takes (the contract's \`${named.get(options.baseHeaders)?.exportName ?? 'baseHeaders'}\`), as a call may give them: the client sends its own where a call leaves them out. */`,
    });
  }

  // The route tables' names, then every shape they and the tables contain.
  for (let key = queue.shift(); key !== undefined; key = queue.shift()) {
    if (decls.has(key)) continue;
    const refs = new Set<string>();
    decls.set(key, { text: compiled.render(typeOf(key), referFor(directionOf(key), refs, partsOf(all.get(key)?.named as NamedSchema), key)), refs });
  }

  // Where each declaration lives: a route table's names in the file of the entry point that exports
  // their schema (as before); any other shape in the one file that uses it, or `shared` when several do.
  const place = new Map<string, string>();
  const fileOfKey = (key: string) => (primary.has(key) ? (all.get(key)?.named.owner as string) : (place.get(key) ?? SHARED));
  for (let round = 0, changed = true; changed; round += 1) {
    if (round > decls.size + 1) throw new Error('declarations do not settle in files');
    const users = new Map<string, Set<string>>();
    const use = (from: string, refs: Set<string>) => {
      for (const r of refs) users.set(r, (users.get(r) ?? new Set()).add(from));
    };
    for (const t of tables) use(t.domain.module, t.refs);
    for (const d of commonDecls.values()) use(SHARED, d.refs);
    for (const [key, d] of decls) use(fileOfKey(key), d.refs);
    changed = false;
    for (const key of decls.keys()) {
      if (primary.has(key)) continue;
      const from = users.get(key) ?? new Set([SHARED]);
      const file = from.size === 1 ? ([...from][0] as string) : SHARED;
      if (place.get(key) !== file) {
        place.set(key, file);
        changed = true;
      }
    }
  }

  // Names: a route table's names as before (`…Input` for a request when the schema also answers);
  // another shape by its export name, `…Output`/`…Input` where that name is taken.
  const names = new Map<string, string>();
  const taken = new Set<string>();
  const nameOf = (key: string, name: string) => {
    if (taken.has(name)) throw new Error(`two generated types named ${name}`);
    names.set(key, name);
    taken.add(name);
  };
  const other = (key: string) => key.replace(/^(input|output):/, (_, d: string) => (d === 'input' ? 'output:' : 'input:'));
  for (const key of primary) {
    const e = all.get(key)?.named.exportName as string;
    nameOf(key, primary.has(other(key)) && directionOf(key) === 'input' ? `${e}Input` : e);
  }
  const rest = [...decls.keys()].filter((k) => !primary.has(k)).sort((a, b) => (directionOf(a) === directionOf(b) ? 0 : directionOf(a) === 'output' ? -1 : 1));
  for (const key of rest) {
    const e = all.get(key)?.named.exportName as string;
    const suffix = directionOf(key) === 'input' ? 'Input' : 'Output';
    nameOf(key, taken.has(e) || (directionOf(key) === 'input' && decls.has(other(key))) ? `${e}${suffix}` : e);
  }
  for (const [key, d] of commonDecls) nameOf(key, d.name);
  const named_ = (text: string) => text.replace(/«([^»]+)»/g, (_, key: string) => names.get(key) as string);

  const files = new Map<string, { decls: string[]; refs: Set<string> }>();
  const fileOf = (owner: string) => {
    let f = files.get(owner);
    if (!f) files.set(owner, (f = { decls: [], refs: new Set() }));
    return f;
  };
  for (const [key, d] of decls) {
    const w = all.get(key) as { named: NamedSchema; direction: Direction };
    const f = fileOf(fileOfKey(key));
    for (const r of d.refs) f.refs.add(r);
    const name = names.get(key) as string;
    const way = w.direction === 'input' ? 'What a caller sends as' : 'What the API answers with as';
    // A shape that reads the same both ways serves both (`params` are sent, yet the same as answered).
    const both = textOf.get(other(key)) === textOf.get(key);
    const doc = both
      ? `/** The contract's \`${w.named.exportName}\` (\`z.input\` and \`z.output\` alike). */`
      : `/** ${way} the contract's \`${w.named.exportName}\` (\`z.${w.direction}\`). */`;
    const text = named_(d.text);
    const type = typeOf(key);
    // An interface where the type is one object: named, so the checker caches it by name.
    const extended = /^(\w+) & \{/.exec(text);
    const plainObject = !type.isUnion() && !type.isIntersection() && !compiled.isArray(type);
    const decl =
      plainObject && text.startsWith('{')
        ? `export interface ${name} ${text}`
        : plainObject && extended
          ? `export interface ${name} extends ${extended[1]} ${text.slice(extended[0].length - 1)}`
          : `export type ${name} = ${text};`;
    f.decls.push(`${doc}\n${decl}`);
  }
  // The errors, the keys, then the headers that extend them.
  const commonOrder = (key: string) => (key === errorsKey ? 0 : key === keyHeadersKey ? 1 : 2);
  for (const [, d] of [...commonDecls].sort(([a], [b]) => commonOrder(a) - commonOrder(b))) {
    const f = fileOf(SHARED);
    for (const r of d.refs) f.refs.add(r);
    f.decls.push(`${d.doc}\n${named_(d.text)}`);
  }
  for (const t of tables) {
    const f = fileOf(t.domain.module);
    for (const r of t.refs) f.refs.add(r);
    f.decls.push(named_(t.text));
  }

  const out = new Map<string, string>();
  for (const [owner, f] of [...files].sort(([a], [b]) => a.localeCompare(b))) {
    const imports = new Map<string, Set<string>>();
    for (const key of f.refs) {
      const from = fileOfKey(key);
      if (from === owner) continue;
      if (!imports.has(from)) imports.set(from, new Set());
      imports.get(from)?.add(names.get(key) as string);
    }
    const importLines = [...imports]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([from, names]) => `import type { ${[...names].sort().join(', ')} } from './${from}.js';`);
    const header = `// Generated by scripts/write-route-types.ts from @switchyard/contract: do not edit (run \`pnpm route-types\`).`;
    const body = f.decls.join('\n\n');
    // The contract types some fields as `any` (an address's `country` comes from a `z.ZodTypeAny` parameter); the mirror keeps them.
    const lint = /: any\b|\| any\b/.test(body) ? ['/* eslint-disable @typescript-eslint/no-explicit-any -- mirrors the contract, which types these fields as any */'] : [];
    out.set(`${owner}.ts`, format([header, ...lint, ...importLines, '', body].join('\n')));
  }
  return out;
}

/** Re-indents the printer's output with two spaces, by brace depth, so the files read as source. */
function format(text: string): string {
  let depth = 0;
  const lines = text.split('\n').map((raw) => {
    const line = raw.trim();
    if (!line) return '';
    const closes = /^[}\])]/.test(line) ? 1 : 0;
    const indented = `${'  '.repeat(Math.max(0, depth - closes))}${line}`;
    for (const ch of line.replace(/'(?:[^'\\]|\\.)*'/g, '')) {
      if (ch === '{' || ch === '[' || ch === '(') depth += 1;
      else if (ch === '}' || ch === ']' || ch === ')') depth -= 1;
    }
    return indented;
  });
  return `${lines.join('\n').replace(/\n{3,}/g, '\n\n').trim()}\n`;
}
