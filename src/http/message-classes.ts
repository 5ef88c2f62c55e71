// The request and response classes the server has Node make (createServer's `IncomingMessage` and
// `ServerResponse` options). Express gives every request and response the app's own prototypes on arrival
// (Object.setPrototypeOf). A prototype changed after an object is made costs more than the change itself: under
// load, much of what such requests and responses hold outlives V8's young generation, and the old one fills with
// it (expressjs/express#5998; `npm run bench:message-classes` measures it). Made with those prototypes already,
// they are left as they are.
import { IncomingMessage, ServerResponse } from 'node:http';
import type { Express } from 'express';

/** Node's request and response classes, with `app`'s request and response objects as their prototypes. */
export function messageClasses(app: Express): { IncomingMessage?: typeof IncomingMessage; ServerResponse?: typeof ServerResponse } {
  // A Node whose classes cannot be called as functions gets its own, and Express sets the prototypes.
  if ([IncomingMessage, ServerResponse].some((c) => Function.prototype.toString.call(c).startsWith('class'))) return {};
  return { IncomingMessage: madeWith(IncomingMessage, app.request), ServerResponse: madeWith(ServerResponse, app.response) };
}

/**
 * A constructor that makes what `base` makes, with `prototype` as its prototype, by calling `base` on the new
 * object. Reflect.construct with another new.target would make the same objects, but far more slowly.
 */
function madeWith<T>(base: T, prototype: object): T {
  const make = base as unknown as (this: object, a: unknown, b: unknown) => void;
  function Made(this: object, a: unknown, b: unknown): void {
    make.call(this, a, b);
  }
  Made.prototype = prototype;
  return Made as unknown as T;
}
