import { constants } from 'node:os';

const SAME_STOP_MS = 1000;

/**
 * 140 §5: the first SIGTERM or SIGINT starts `stop`; another within a second is the same stop (a
 * terminal and systemd signal the whole process group, `npm start` forwards it once more); a later
 * one calls `hardStop` with the exit code 128 + the signal's number.
 */
export function onStopSignals(stop: (signal: NodeJS.Signals) => void, hardStop: (code: number) => void = (code) => process.exit(code)): void {
  let first: number | undefined;
  const handle = (signal: NodeJS.Signals) => {
    const now = performance.now();
    if (first === undefined) {
      first = now;
      stop(signal);
    } else if (now - first > SAME_STOP_MS) hardStop(128 + constants.signals[signal]);
  };
  process.on('SIGTERM', handle);
  process.on('SIGINT', handle);
}
