import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { promClient } from './prom-client.ts';
import { cacheLookups, type CacheName } from './cache-lookups.ts';
import { routeLabelOf } from './route-label.ts';
import type { DeliveryOutcome } from '../services/webhooks/delivery-worker.ts';
import type { DeliveryOutcome as MailOutcome } from '../services/mail/mail-outbox.ts';
import type { AttemptOutcome } from '../storage/repositories/submissions-repository.ts';

const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const CACHES: CacheName[] = ['replay', 'read', 'page'];
export const OUTBOX_STATES = ['pending', 'delivering', 'succeeded', 'failed', 'cancelled'] as const;
export const MAIL_STATES = ['pending', 'sending', 'sent', 'failed', 'cancelled'] as const;
const MAIL_OUTCOMES: MailOutcome[] = ['sent', 'temporary', 'permanent', 'lease_lost'];
const SUBMISSION_OUTCOMES: AttemptOutcome[] = ['stored', 'bad-token', 'too-fast', 'expired', 'reused', 'honeypot'];
export const EVENT_STATUSES = ['publish', 'future', 'draft', 'pending', 'private', 'trash'] as const;

/** What the job runner reads from the database every 15 s (140 §4.2); a scrape never waits for it. */
export interface DatabaseReadings {
  outbox: Partial<Record<(typeof OUTBOX_STATES)[number], number>>;
  mail: Partial<Record<(typeof MAIL_STATES)[number], number>>;
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
  private readonly mailOutbox: Gauge<'state'>;
  private readonly mailDeliveries: Counter<'outcome'>;
  private readonly submissions: Counter<'outcome'>;

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
    this.mailOutbox = new Gauge({ name: 'calendar_mail_outbox_messages', help: 'Mail outbox rows by state.', labelNames: ['state'], registers, aggregator: 'max' });
    this.mailDeliveries = new Counter({ name: 'calendar_mail_deliveries_total', help: 'Finished SMTP attempts by outcome.', labelNames: ['outcome'], registers });
    this.submissions = new Counter({ name: 'calendar_submissions_total', help: 'Submission POSTs stored or silently dropped, by outcome.', labelNames: ['outcome'], registers });
    // Every outcome from the start: a rate over a series that appears at its first increment misses that one.
    for (const outcome of MAIL_OUTCOMES) this.mailDeliveries.inc({ outcome }, 0);
    for (const outcome of SUBMISSION_OUTCOMES) this.submissions.inc({ outcome }, 0);
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

  mailDelivered(outcome: MailOutcome): void {
    this.mailDeliveries.inc({ outcome });
  }

  submitted(outcome: AttemptOutcome): void {
    this.submissions.inc({ outcome });
  }

  readDatabase(readings: DatabaseReadings): void {
    for (const state of OUTBOX_STATES) this.outbox.set({ state }, readings.outbox[state] ?? 0);
    for (const state of MAIL_STATES) this.mailOutbox.set({ state }, readings.mail[state] ?? 0);
    for (const status of EVENT_STATUSES) this.events.set({ status }, readings.events[status] ?? 0);
    this.feedLag.set(readings.feedLagSeconds);
  }
}
