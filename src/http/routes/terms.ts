import type { RouteDef } from '../rest/endpoint.ts';
import type { AppDeps } from './index.ts';

export function categoryRoutes(_deps: AppDeps): RouteDef[] {
  return [];
}

export function tagRoutes(_deps: AppDeps): RouteDef[] {
  return [];
}
