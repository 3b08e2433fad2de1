import type { RouteDef } from '../rest/endpoint.ts';
import type { AppDeps } from './index.ts';

export function eventRoutes(_deps: AppDeps): RouteDef[] {
  return [];
}
