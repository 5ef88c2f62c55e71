// The contract's check of a request (and, in tests, of its response): express-openapi-validator as released,
// given the operation the gate has matched (operation-gate.ts). Its own route lookup compiles the pattern of
// every path in the contract again on each request (an open pull request upstream, #1217, would cache
// them), which cost more than everything else a lookup does. The gate has already matched the operation,
// so the lookup runs once per operation, on its first request, and later requests are given what it found
// (`req.openapi`, the validator's documented request metadata) with their own path parameters.
import type { Request, RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { OpenApiRequest, OpenApiRequestHandler, OpenApiRequestMetadata } from 'express-openapi-validator/dist/framework/types.js';
import type { MatchedOperation } from './operation-gate.js';

export interface ValidatorOptions {
  /** Check every response against the contract too (tests). */
  validateResponses: boolean;
}

/** What the validator's route lookup found for an operation, less a request's own path parameters. */
type Operation = Omit<OpenApiRequestMetadata, 'pathParams'>;

/** The validator's middleware of that name; the list is the package's own, so a missing one fails at start-up. */
function middlewareNamed(all: OpenApiRequestHandler[], name: string): OpenApiRequestHandler {
  const found = all.find((m) => m.name === name);
  if (!found) throw new Error(`express-openapi-validator has no ${name}; its middleware list has changed`);
  return found;
}

function withoutParams(metadata: OpenApiRequestMetadata): Operation {
  // not a copy with pathParams deleted: an object a property was deleted from is kept as a dictionary, and
  // every request's metadata would be copied from one
  const { pathParams, ...operation } = metadata;
  return operation;
}

export function requestValidator(spec: Record<string, unknown>, opts: ValidatorOptions): RequestHandler {
  const all = OpenApiValidator.middleware({
    apiSpec: spec as never,
    validateRequests: { allowUnknownQueryParameters: false, coerceTypes: false },
    validateResponses: opts.validateResponses,
    validateApiSpec: opts.validateResponses,
    // No security schemes and no uploads: their middlewares are not run (below).
    validateSecurity: false,
    fileUploader: false,
    ignoreUndocumented: false,
  });
  // The path-parameter and security middlewares are left out: the first only copies the lookup's parameters
  // into req.params, which the router sets itself; the second has no schemes to check.
  const lookup = middlewareNamed(all, 'metadataMiddleware');
  const check = [middlewareNamed(all, 'requestMiddleware'), ...(opts.validateResponses ? [middlewareNamed(all, 'responseMiddleware')] : [])];
  /** What the lookup found for each operation, by method and the operation's path as the contract writes it. */
  const found = new Map<string, Map<string, Operation>>();

  const validate: RequestHandler = check.length === 1 ? check[0]! as RequestHandler : (req, res, next) => {
    const step = (i: number): unknown => (i === check.length ? next() : check[i]!(req as OpenApiRequest, res, (err?: unknown) => (err ? next(err) : step(i + 1))));
    return step(0);
  };

  return (request: Request, res, next) => {
    const req = request as OpenApiRequest;
    const operation = res.locals.operation as MatchedOperation | undefined;
    // outside the contract: the router's 404, or a method the gate has refused already
    if (!operation) return next();
    let byPath = found.get(req.method);
    if (!byPath) found.set(req.method, byPath = new Map());
    const known = byPath.get(operation.template);
    if (known) {
      req.openapi = { ...known, pathParams: operation.params };
      return validate(req, res, next);
    }
    return lookup(req, res, (err?: unknown) => {
      if (err) return next(err);
      if (req.openapi) byPath.set(operation.template, withoutParams(req.openapi));
      return validate(req, res, next);
    });
  };
}
