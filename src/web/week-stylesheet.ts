/**
 * The week grid's placement classes (130 §4.2). Pages may not carry `style` attributes (the CSP
 * forbids them), so every row, span, lane and top-row bar position is a class defined here.
 */
const ROWS = 48;
const LANE_COLUMNS = 12;
const MAX_LANES = 4;

function range(count: number, from = 0): number[] {
  return Array.from({ length: count }, (_, index) => index + from);
}

function placementRules(): string {
  const rules: string[] = [];
  for (const rows of range(ROWS, 1)) rules.push(`.week-rows-${rows} .day-grid,.week-rows-${rows} .week-hours{grid-template-rows:repeat(${rows},1.5rem)}`);
  for (const row of range(ROWS)) rules.push(`.week .r${row}{grid-row-start:${row + 1}}`);
  for (const span of range(ROWS, 1)) rules.push(`.week .s${span}{grid-row-end:span ${span}}`);
  for (const lanes of range(MAX_LANES, 1)) {
    const width = LANE_COLUMNS / lanes;
    for (const lane of range(lanes, 1)) rules.push(`.week .l${lane}-${lanes}{grid-column:${(lane - 1) * width + 1}/span ${width}}`);
  }
  for (const column of range(7)) rules.push(`.week-top .c${column}{grid-column-start:${column + 1}}`);
  for (const width of range(7, 1)) rules.push(`.week-top .w${width}{grid-column-end:span ${width}}`);
  return rules.join('\n');
}

const LAYOUT = `
.week{display:grid;grid-template-columns:3.25rem repeat(7,minmax(0,1fr));margin:var(--space-3) 0;border:1px solid var(--border);background:var(--bg)}
.week-top{grid-column:2/span 7;grid-row:1;border-bottom:1px solid var(--border);padding:var(--space-1) 0}
.week-top ul{display:grid;grid-template-columns:repeat(7,minmax(0,1fr));gap:3px;list-style:none;margin:0;padding:0}
.week-hours{grid-column:1;grid-row:2;display:grid;list-style:none;margin:0;padding:2.5rem var(--space-1) 0 0;font-size:.75rem;color:var(--text-muted);text-align:right;font-variant-numeric:tabular-nums}
.week-day{grid-row:2;min-width:0;border-left:1px solid var(--border)}
.week-day>h2{height:2.5rem;margin:0;padding:var(--space-1);font-size:var(--step--1);font-weight:600;overflow:hidden;border-bottom:1px solid var(--border);background:var(--surface-sunken)}
.week-day.today>h2{background:var(--accent);color:var(--on-accent)}
.day-grid{display:grid;grid-template-columns:repeat(${LANE_COLUMNS},minmax(0,1fr));list-style:none;margin:0;padding:0 2px}
.week .week-bar,.week .segment{margin:1px;padding:.125rem .25rem;border-radius:4px;border-left:3px solid var(--accent);background:var(--accent-tint);color:var(--text);font-size:.75rem;line-height:1.25;overflow:hidden;overflow-wrap:anywhere;min-width:0}
.week .week-bar{border-left-style:double;border-left-width:4px}
.week .schedule{margin:0;font-variant-numeric:tabular-nums;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.week .segment a,.week .week-bar a{color:var(--text);font-weight:600}
.week .featured-label{margin-left:var(--space-1);font-size:.6875rem}
.week-day>.more,.week-day>.day-count{margin:var(--space-1);font-size:.8125rem}
@media (max-width:37.5rem){
  .week{display:block;border:0}
  .week-hours,.week-day.empty,.week-top.empty{display:none}
  .week-top,.week-day{border:0;border-bottom:1px solid var(--border);padding:var(--space-2) 0}
  .week-top>h2.vh{position:static!important;width:auto;height:auto;clip:auto;white-space:normal;font-size:var(--step-0);margin:0 0 var(--space-1)}
  .week-top ul,.day-grid{display:block;padding:0}
  .week-day>h2{height:auto;background:none;border:0;padding:0 0 var(--space-1)}
  .week-day>h2 [aria-hidden]{display:none}
  .week-day>h2 .vh{position:static!important;width:auto;height:auto;clip:auto;white-space:normal}
  .week .week-bar,.week .segment{margin:0 0 var(--space-1);font-size:.875rem}
  .week .schedule{white-space:normal}
}
`;

export const WEEK_STYLES = `${LAYOUT}\n${placementRules()}\n`;
