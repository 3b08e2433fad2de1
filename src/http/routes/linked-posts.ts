import type { RouteDef } from '../rest/endpoint.ts';
import type { AppDeps } from './index.ts';

export function venueRoutes(_deps: AppDeps): RouteDef[] {
  return [];
}

export function organizerRoutes(_deps: AppDeps): RouteDef[] {
  return [];
}
