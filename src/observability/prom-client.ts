import type * as PromClient from 'prom-client';
import { lazyModule } from '../lazy-module.ts';

/** prom-client, loaded when the first metrics are made: without CALENDAR_METRICS no process holds it. */
export const promClient = lazyModule<typeof PromClient>('prom-client');
