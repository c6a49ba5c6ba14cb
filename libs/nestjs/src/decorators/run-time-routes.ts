import { RequestMethod, type Type } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';

/**
 * Routes a controller whose path is known only at run time, as `@Controller(path)` and a
 * `@Get(route)` on each handler would: `path` on `controller`, and a `GET` at `routes[name]`
 * (relative to `path`) on each handler `name` of its prototype. Call it from the controller's
 * constructor, which Nest runs when it creates the application (after `forRootAsync` options
 * are resolved, before routes are registered).
 *
 * Errors: a `TypeError` when a name in `routes` is not a method of `controller` (fix the
 * name).
 */
export function routeGetHandlers(
  controller: Type<unknown>,
  path: string,
  routes: Readonly<Record<string, string>>,
): void {
  Reflect.defineMetadata(PATH_METADATA, path, controller);
  for (const [name, route] of Object.entries(routes)) {
    const handler = Object.getOwnPropertyDescriptor(controller.prototype, name)?.value as object;
    Reflect.defineMetadata(PATH_METADATA, route, handler);
    Reflect.defineMetadata(METHOD_METADATA, RequestMethod.GET, handler);
  }
}
