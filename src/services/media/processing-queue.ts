import { RestError } from '../../domain/errors.ts';

/**
 * At most `concurrency` images in processing at once per process, the others waiting in arrival
 * order (110-media §4.5); with 4 × that many waiting the next is turned away (§2.2 #9), and a
 * waiter whose client went away leaves the queue.
 */
export class ProcessingQueue {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  /** The most ever in processing at once (the concurrency tests read it). */
  peak = 0;

  constructor(private readonly concurrency: number) {}

  async run<T>(work: () => Promise<T>, abandoned?: AbortSignal): Promise<T> {
    await this.slot(abandoned);
    this.peak = Math.max(this.peak, this.active);
    try {
      return await work();
    } finally {
      // The slot passes straight to the next waiter, so that no newcomer slips in between.
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }

  private slot(abandoned?: AbortSignal): Promise<void> {
    if (this.active < this.concurrency && this.waiting.length === 0) {
      this.active++;
      return Promise.resolve();
    }
    if (this.waiting.length >= 4 * this.concurrency) {
      return Promise.reject(new RestError(503, 'rest_upload_busy', { headers: { 'Retry-After': '5' } }));
    }
    return new Promise((resolve, reject) => {
      const turn = () => {
        abandoned?.removeEventListener('abort', leave);
        resolve();
      };
      const leave = () => {
        const at = this.waiting.indexOf(turn);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(new RestError(499, 'rest_upload_busy'));
      };
      this.waiting.push(turn);
      abandoned?.addEventListener('abort', leave, { once: true });
    });
  }
}
