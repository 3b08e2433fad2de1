import type { ImportProgress } from '../services/site-import/importer.ts';
import type { ImportKind } from '../storage/schema.ts';

const LABELS: Record<ImportKind, string> = { category: 'categories', tag: 'tags', venue: 'venues', organizer: 'organizers', event: 'events' };

export function kindLabel(kind: ImportKind): string {
  return LABELS[kind];
}

/** Plain output: one line per page read and one per kind finished (logs, pipes, CI). */
export function lineProgress(write: (line: string) => void): ImportProgress {
  return {
    page: (kind, page, totalPages, total) =>
      write(`${kindLabel(kind)}: page ${page}${totalPages ? ` of ${totalPages}` : ''}${total !== undefined ? ` (${total} listed)` : ''}`),
    record: () => {},
    finished: (kind) => write(`${kindLabel(kind)}: done`),
  };
}

function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const whole = Math.round(seconds);
  return whole >= 60 ? `${Math.floor(whole / 60)}m${String(whole % 60).padStart(2, '0')}s` : `${whole}s`;
}

/** On a terminal: one progress bar per kind, redrawn in place (done/total, rate, ETA). */
export function barProgress(stream: NodeJS.WriteStream): ImportProgress {
  let started = 0;
  let drawn = false;
  const draw = (kind: ImportKind, done: number, total: number) => {
    const width = 30;
    const filled = total === 0 ? width : Math.round((done / total) * width);
    const seconds = (Date.now() - started) / 1000;
    const rate = seconds > 0 ? done / seconds : 0;
    const eta = rate > 0 ? (total - done) / rate : Number.POSITIVE_INFINITY;
    stream.write(`\r${kindLabel(kind).padEnd(11)}[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}  ${rate.toFixed(1)}/s  ETA ${duration(eta)}\x1b[K`);
    drawn = true;
  };
  return {
    page: (kind, page, totalPages) => {
      if (page === 1) started = Date.now();
      stream.write(`\r${kindLabel(kind).padEnd(11)}reading page ${page}${totalPages ? ` of ${totalPages}` : ''}\x1b[K`);
      drawn = true;
    },
    record: draw,
    finished: () => {
      if (drawn) stream.write('\n');
      drawn = false;
    },
  };
}
