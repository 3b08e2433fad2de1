import assert from 'node:assert/strict';
import { test } from 'node:test';
import { barProgress, lineProgress } from '../../../src/cli/import-progress.ts';

test('on a terminal: a bar per kind redrawn in place with done/total, rate and ETA, one line when the kind ends', () => {
  let written = '';
  const progress = barProgress({ write: (text: string) => ((written += text), true) } as unknown as NodeJS.WriteStream);
  progress.page('event', 1, 2, 60);
  progress.record('event', 15, 60);
  progress.record('event', 60, 60);
  progress.finished('event');
  const frames = written.split('\r').filter(Boolean);
  assert.match(frames[0], /^events {5}reading page 1 of 2/);
  assert.match(frames[1], /^events {5}\[#{8}\.{22}\] 15\/60 {2}[\d.]+\/s {2}ETA (\d+s|\?|\d+m\d\ds)/);
  assert.match(frames[2], /^events {5}\[#{30}\] 60\/60 .*\n$/);
  assert.equal(written.split('\n').length, 2, 'one line in the end');
});

test('elsewhere: one plain line per kind and page', () => {
  const lines: string[] = [];
  const progress = lineProgress((line) => lines.push(line));
  progress.page('category', 1, 2, 70);
  progress.record('category', 1, 70);
  progress.page('category', 2, 2, 70);
  progress.finished('category');
  assert.deepEqual(lines, ['categories: page 1 of 2 (70 listed)', 'categories: page 2 of 2 (70 listed)', 'categories: done']);
});
