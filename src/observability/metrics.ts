import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { promClient } from './prom-client.ts';
import { cacheLookups, type CacheName } from './cache-lookups.ts';
import { routeLabelOf } from './route-label.ts';
import type { DeliveryOutcome } from '../services/webhooks/delivery-worker.ts';

const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const CACHES: CacheName[] = ['replay', 'read', 'page'];
export const OUTBOX_STATES = ['pending', 'delivering', 'succeeded', 'failed', 'cancelled'] as const;
export const EVENT_STATUSES = ['publish', 'future', 'draft', 'pending', 'private', 'trash'] as const;

/** What the job runner reads from the database every 15 s (140 §4.2); a scrape never waits for it. */
export interface DatabaseReadings {
  outbox: Partial<Record<(typeof OUTBOX_STATES)[number], number>>;
  events: Partial<Record<(typeof EVENT_STATUSES)[number], number>>;
  feedLagSeconds: number;
}

/**
 * The Prometheus metrics of one process (140 §4.2: names, types and labels are contractual). With
 * workers each process keeps its own and the primary merges them; database gauges are the same in
 * every process that reads them, so they merge by maximum (a worker that is not the job runner reads none).
 */
export class ServiceMetrics {
  readonly registry: Registry;
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly durations: Histogram<'method' | 'route'>;
  private readonly inFlight: Gauge;
  private readonly outbox: Gauge<'state'>;
  private readonly events: Gauge<'status'>;
  private readonly feedLag: Gauge;
  private readonly deliveries: Counter<'outcome'>;

  constructor() {
    const { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } = promClient();
    this.registry = new Registry();
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Counter({ name: 'http_requests_total', help: 'Answered requests, replayed answers and 304s included.', labelNames: ['method', 'route', 'status'], registers });
    this.durations = new Histogram({ name: 'http_request_duration_seconds', help: 'From arrival to the last byte written.', labelNames: ['method', 'route'], buckets: DURATION_BUCKETS, registers });
    this.inFlight = new Gauge({ name: 'http_requests_in_flight', help: 'Requests received and not yet answered.', registers });
    for (const [name, help, field] of [
      ['calendar_cache_hits_total', 'Lookups served from a cache.', 'hits'],
      ['calendar_cache_misses_total', 'Lookups a cache had to compute.', 'misses'],
    ] as const) {
      new Counter({
        name,
        help,
        labelNames: ['cache'],
        registers,
        collect() {
          this.reset();
          for (const cache of CACHES) this.inc({ cache }, cacheLookups[cache][field]);
        },
      });
    }
    this.outbox = new Gauge({ name: 'calendar_webhook_outbox_messages', help: 'Webhook outbox rows by state.', labelNames: ['state'], registers, aggregator: 'max' });
    this.events = new Gauge({ name: 'calendar_events', help: 'Stored events by status, series masters excluded.', labelNames: ['status'], registers, aggregator: 'max' });
    this.feedLag = new Gauge({ name: 'calendar_change_feed_lag_seconds', help: 'Age of the oldest committed change readers cannot see yet.', registers, aggregator: 'max' });
    this.deliveries = new Counter({ name: 'calendar_webhook_deliveries_total', help: 'Finished webhook send attempts by outcome.', labelNames: ['outcome'], registers });
  }

  /** Counts a request from its arrival to its last byte, under the route pattern that answered it. */
  readonly observe = (request: IncomingMessage, response: ServerResponse): void => {
    const began = process.hrtime.bigint();
    this.inFlight.inc();
    response.once('close', () => {
      this.inFlight.dec();
      const route = routeLabelOf(request);
      const method = request.method ?? 'GET';
      this.requests.inc({ method, route, status: String(response.statusCode) });
      this.durations.observe({ method, route }, Number(process.hrtime.bigint() - began) / 1e9);
    });
  };

  delivered(outcome: DeliveryOutcome): void {
    this.deliveries.inc({ outcome });
  }

  readDatabase(readings: DatabaseReadings): void {
    for (const state of OUTBOX_STATES) this.outbox.set({ state }, readings.outbox[state] ?? 0);
    for (const status of EVENT_STATUSES) this.events.set({ status }, readings.events[status] ?? 0);
    this.feedLag.set(readings.feedLagSeconds);
  }
}
