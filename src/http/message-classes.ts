// The request and response classes the server has Node make (createServer's `IncomingMessage` and
// `ServerResponse` options). Express gives every request and response the app's own prototypes on arrival
// (Object.setPrototypeOf). A prototype changed after an object is made costs more than the change itself: under
// load, much of what such requests and responses hold outlives V8's young generation, and the old one fills with
// it (expressjs/express#5998; `npm run bench:message-classes` measures it). Made with those prototypes already,
// they are left as they are.
import { IncomingMessage, ServerResponse } from 'node:http';
import type { Express } from 'express';

/**
 * Subclasses of Node's request and response classes whose prototypes become `app`'s request and response
 * objects (app.request and app.response are replaced by them, with the same properties and the same chain
 * beneath). Call it once per app, before the server is made.
 */
export function messageClasses(app: Express): { IncomingMessage: typeof IncomingMessage; ServerResponse: typeof ServerResponse } {
  const Request = subclassStandingFor(IncomingMessage, app.request);
  const Response = subclassStandingFor(ServerResponse, app.response);
  app.request = Request.prototype as Express['request'];
  app.response = Response.prototype as Express['response'];
  return { IncomingMessage: Request, ServerResponse: Response };
}

/**
 * A subclass of `base` whose prototype has `stand`'s properties and prototype, so that it can replace `stand`.
 * Why a subclass: V8 lays out what a class constructor makes from the base class's own layout. An object made by
 * calling Node's constructor on an object of another function's making had too few fields for a response's
 * properties and was kept as a dictionary, slower to read and larger to make; Reflect.construct with another
 * new.target made the same objects, at several times the CPU per request.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- TypeScript's rule for a class made from a class given
function subclassStandingFor<C extends new (...args: any[]) => object>(base: C, stand: object): C {
  const Made = class extends base {};
  Object.setPrototypeOf(Made.prototype, Object.getPrototypeOf(stand));
  for (const key of Reflect.ownKeys(stand)) Object.defineProperty(Made.prototype, key, Object.getOwnPropertyDescriptor(stand, key)!);
  return Made;
}
