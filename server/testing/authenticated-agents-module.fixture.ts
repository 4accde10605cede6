// An agents module that brings its own authentication, as a deployment's would: the actor is the
// bearer token's name, and a request without one names nobody (401).
import { agents } from "./agents-module.fixture";

export { agents };

export function authenticate(request: Request): string | undefined {
  const token = /^Bearer (\S+)$/.exec(request.headers.get("authorization") ?? "")?.[1];
  return token === undefined ? undefined : `user-${token}`;
}
