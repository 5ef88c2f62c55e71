// The contract as the fuzzer reads it: every operation with its parameters, body and declared responses
// ($refs resolved), and an ajv validator per response schema. Nothing here knows an endpoint by name: the
// fuzzer's whole knowledge of the API is the OpenAPI document.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { openApiDocument } from '../../src/contract/openapi.js';

export type Schema = Record<string, unknown> & {
  type?: string | string[];
  $ref?: string;
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
  default?: unknown;
  minProperties?: number;
};

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: Schema;
}

export interface Response {
  /** Media type -> validator of the body. */
  content: Map<string, ValidateFunction>;
  headers: string[];
}

export interface Operation {
  id: string;
  method: string;
  template: string;
  parameters: Parameter[];
  body: { required: boolean; content: Map<string, Schema> } | null;
  responses: Map<string, Response>;
}

export interface Contract {
  document: Record<string, unknown>;
  operations: Operation[];
  /** The methods of each path template, HEAD wherever GET is, in Allow's order. */
  methods: Map<string, string[]>;
  /** Resolves $refs (one level at a time, as often as needed). */
  deref(schema: Schema): Schema;
  /** Validator of the response every path answers for a method it does not have. */
  methodNotAllowed: ValidateFunction;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

export function loadContract(): Contract {
  const document = openApiDocument() as Record<string, unknown> & {
    paths: Record<string, Record<string, Record<string, unknown>>>;
    components: Record<string, Record<string, unknown>>;
  };
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
  ajv.addSchema(document, 'contract');
  const pointer = (ref: string) => ref.replace(/^#/, 'contract#');
  const lookup = (ref: string): Record<string, unknown> => {
    let node: unknown = document;
    for (const part of ref.replace(/^#\//, '').split('/')) node = (node as Record<string, unknown>)[part.replaceAll('~1', '/').replaceAll('~0', '~')];
    return node as Record<string, unknown>;
  };
  const deref = <T extends Record<string, unknown>>(x: T): T => {
    let node: Record<string, unknown> = x;
    while (typeof node.$ref === 'string') node = lookup(node.$ref);
    return node as T;
  };
  const compile = (schema: Schema): ValidateFunction => ajv.compile(
    typeof schema.$ref === 'string' ? { $ref: pointer(schema.$ref) } : JSON.parse(JSON.stringify(schema).replaceAll('"$ref":"#/', '"$ref":"contract#/')) as object,
  );

  const operations: Operation[] = [];
  const methods = new Map<string, string[]>();
  for (const [template, item] of Object.entries(document.paths)) {
    const declared = METHODS.filter((m) => item[m]).map((m) => m.toUpperCase());
    if (declared.includes('GET') && !declared.includes('HEAD')) declared.push('HEAD');
    // in the order the server's Allow lists them: reads first, OPTIONS last
    const own = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'].filter((m) => declared.includes(m));
    methods.set(template, own);
    for (const method of METHODS) {
      const op = item[method] as Record<string, unknown> | undefined;
      if (!op) continue;
      const parameters = ((op.parameters ?? []) as Array<Record<string, unknown>>).map((p) => {
        const d = deref(p) as unknown as Parameter & { schema: Schema };
        return { name: d.name, in: d.in, required: Boolean(d.required), schema: deref(d.schema) };
      });
      const rb = op.requestBody ? deref(op.requestBody as Record<string, unknown>) as { required?: boolean; content: Record<string, { schema: Schema }> } : null;
      const responses = new Map<string, Response>();
      for (const [status, r] of Object.entries(op.responses as Record<string, Record<string, unknown>>)) {
        const d = deref(r) as { content?: Record<string, { schema?: Schema }>; headers?: Record<string, unknown> };
        const content = new Map<string, ValidateFunction>();
        for (const [type, media] of Object.entries(d.content ?? {})) content.set(type, compile(media.schema ?? {}));
        responses.set(status, { content, headers: Object.keys(d.headers ?? {}) });
      }
      operations.push({
        id: String(op.operationId ?? `${method} ${template}`), method: method.toUpperCase(), template, parameters,
        body: rb ? { required: Boolean(rb.required), content: new Map(Object.entries(rb.content).map(([t, m]) => [t, deref(m.schema)])) } : null,
        responses,
      });
    }
  }
  const notAllowed = deref(document.components.responses!.MethodNotAllowed as Record<string, unknown>) as { content: Record<string, { schema: Schema }> };
  return { document, operations, methods, deref, methodNotAllowed: compile(notAllowed.content['application/json']!.schema) };
}
