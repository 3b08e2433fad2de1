import { DARK_BACKGROUND, DARK_SURFACE, darkAccent, emphasis, LIGHT_BACKGROUND, tint } from './theme/colours.ts';
import { hashedAsset, type Asset } from './assets.ts';
import { WEEK_STYLES } from './week-stylesheet.ts';
import { SUBMISSION_STYLES } from './submission-stylesheet.ts';
import { ADMIN_STYLES } from './admin/admin-stylesheet.ts';

/**
 * The colours of one theme. Accent text only ever sits on `bg` or `surface` (the accent was
 * checked against both), accent fills carry `on-accent` text, and chips (`accent-tint`) carry
 * `text`: so every pair meets WCAG 2.2 AA for any accent the setting accepts.
 */
function themeProperties(theme: 'light' | 'dark', accent: string): string {
  const light = theme === 'light';
  const shown = light ? accent : darkAccent(accent);
  const colours: Record<string, string> = light
    ? {
        accent: shown,
        'accent-strong': emphasis(shown, 'black'),
        'accent-tint': tint(shown, LIGHT_BACKGROUND, 0.1),
        'on-accent': '#ffffff',
        bg: LIGHT_BACKGROUND,
        surface: LIGHT_BACKGROUND,
        'surface-sunken': '#f4f5f7',
        text: '#1b1f24',
        'text-muted': '#565d67',
        border: '#d5d9df',
        'border-strong': '#767c85',
        danger: '#b3261e',
        'warning-bg': '#fff4ce',
        'warning-border': '#8a6d00',
      }
    : {
        accent: shown,
        'accent-strong': emphasis(shown, 'white'),
        'accent-tint': tint(shown, DARK_BACKGROUND, 0.18),
        'on-accent': DARK_BACKGROUND,
        bg: DARK_BACKGROUND,
        surface: DARK_SURFACE,
        'surface-sunken': '#0f1115',
        text: '#e8ebf0',
        'text-muted': '#a9b0bb',
        border: '#343a44',
        'border-strong': '#8a919c',
        danger: '#ff8a80',
        'warning-bg': '#3a3000',
        'warning-border': '#d4b106',
      };
  const properties = Object.entries(colours).map(([name, value]) => `--${name}:${value}`).join(';');
  return `:root{color-scheme:${theme};${properties}}`;
}

/**
 * The design system: spacing, a type scale, radii, then components. Generic classes (`.button`,
 * `.card`, `.badge`, `.field`) are meant for every HTML surface of the product; the calendar's own
 * markup is styled by its existing class names. No web fonts: the system font stack.
 */
const DESIGN = `
:root{--font:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;--font-mono:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;
--space-1:.25rem;--space-2:.5rem;--space-3:.75rem;--space-4:1rem;--space-5:1.5rem;--space-6:2rem;--space-7:3rem;
--step--2:.75rem;--step--1:.875rem;--step-0:1rem;--step-1:1.125rem;--step-2:1.375rem;--step-3:1.75rem;--step-4:2.25rem;
--radius:6px;--radius-lg:10px;--focus-width:3px;--measure:72rem}
*{box-sizing:border-box}
html{font-family:var(--font);font-size:100%;line-height:1.5;color:var(--text);background:var(--bg);-webkit-text-size-adjust:100%}
body{margin:0 auto;max-width:var(--measure);padding:0 var(--space-4)}
h1,h2,h3,h4{line-height:1.25;margin:var(--space-5) 0 var(--space-3)}
h1{font-size:var(--step-4);letter-spacing:-.01em}
h2{font-size:var(--step-2)}
h3{font-size:var(--step-1)}
p{margin:var(--space-2) 0}
a{color:var(--accent);text-underline-offset:.15em}
a:hover{color:var(--accent-strong);text-decoration-thickness:2px}
:focus-visible{outline:var(--focus-width) solid var(--accent);outline-offset:2px}
a:focus,button:focus,input:focus,select:focus,textarea:focus,summary:focus,main:focus{outline:var(--focus-width) solid var(--accent);outline-offset:2px}
img{max-width:100%;height:auto}
ul{padding-left:1.25rem}
address{font-style:normal}
.vh{position:absolute!important;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.skip{position:absolute;left:-10000px;top:0;padding:var(--space-2) var(--space-4);background:var(--surface);border:2px solid var(--accent);border-radius:var(--radius)}
.skip:focus{left:var(--space-4);top:var(--space-2);z-index:10}

/* Controls */
input,select,textarea{font:inherit;color:var(--text);background:var(--surface);border:1px solid var(--border-strong);border-radius:var(--radius);min-height:2.5rem;padding:.375rem .625rem;max-width:100%}
label{font-weight:600;font-size:var(--step--1)}
.field{display:flex;flex-direction:column;gap:var(--space-1)}
.hint{font-size:.8125rem;color:var(--text-muted)}
button,.button{display:inline-flex;align-items:center;justify-content:center;gap:var(--space-2);min-height:2.5rem;min-width:24px;padding:.375rem var(--space-4);font:inherit;font-weight:600;line-height:1.2;border:1px solid var(--accent);border-radius:var(--radius);background:var(--accent);color:var(--on-accent);cursor:pointer;text-decoration:none;transition:background-color .15s,border-color .15s}
button:hover,.button:hover{background:var(--accent-strong);border-color:var(--accent-strong);color:var(--on-accent)}
.button-secondary{background:var(--surface);color:var(--accent);border-color:var(--border-strong)}
.button-secondary:hover{background:var(--surface);color:var(--accent-strong);border-color:var(--accent)}
.badge,.featured-label{display:inline-block;padding:0 .45em;border-radius:999px;font-size:var(--step--2);font-weight:700;line-height:1.6;letter-spacing:.02em;background:var(--accent);color:var(--on-accent);vertical-align:.15em}
.featured-label{margin-left:var(--space-2)}
.card,.event{background:var(--surface);border:1px solid var(--border);border-radius:var(--radius-lg);padding:var(--space-4) var(--space-5)}
.notices,.alert{padding:var(--space-3) var(--space-4);border-left:4px solid var(--accent);background:var(--surface-sunken);border-radius:var(--radius)}
.notices:empty{display:none}
.notices p{margin:0}
.alert{border-color:var(--danger)}
.preview{background:var(--warning-bg);border:1px solid var(--warning-border);border-radius:var(--radius);padding:var(--space-2) var(--space-4)}
.disabled{color:var(--text-muted)}

/* Header, events bar, footer */
.site-header{display:flex;flex-wrap:wrap;justify-content:space-between;align-items:center;gap:var(--space-2) var(--space-4);padding:var(--space-4) 0;border-bottom:1px solid var(--border)}
.site-name{margin:0;font-size:var(--step-2);font-weight:750;line-height:1.2}
.site-name a{display:inline-flex;align-items:center;gap:var(--space-3);min-height:2.5rem;color:var(--text);text-decoration:none}
.site-name a:hover{color:var(--accent-strong)}
.site-logo{height:2.5rem;width:auto;max-width:12rem;object-fit:contain}
nav ul,.menu ul{list-style:none;padding:0;margin:0;display:flex;flex-wrap:wrap;gap:var(--space-1) var(--space-4)}
nav a,.menu a,summary{display:inline-block;min-height:24px;min-width:24px;padding:.125rem .25rem}
a[aria-current]{font-weight:700}
.languages ul{gap:var(--space-1)}
.languages a{padding:var(--space-1) var(--space-2);border-radius:var(--radius);text-decoration:none;font-size:var(--step--1)}
.languages a[aria-current]{box-shadow:inset 0 -2px 0 var(--accent)}
.bar{display:flex;flex-wrap:wrap;gap:var(--space-3) var(--space-5);align-items:flex-end;justify-content:space-between;margin:var(--space-4) 0;padding:var(--space-3) var(--space-4);background:var(--surface);border:1px solid var(--border);border-radius:var(--radius-lg)}
.search{display:flex;flex-wrap:wrap;gap:var(--space-2) var(--space-3);align-items:flex-start;flex:1 1 30rem}
.search p{margin:0;display:flex;flex-direction:column;gap:var(--space-1);min-width:0}
.search p:first-child{flex:1 1 14rem}
.search p:last-child{padding-top:calc(var(--step--1) * 1.5 + var(--space-1))}
.views ul{gap:0;border:1px solid var(--border-strong);border-radius:var(--radius);overflow:hidden}
.views li+li{border-left:1px solid var(--border-strong)}
.views a{display:block;padding:.5rem var(--space-4);text-decoration:none;font-weight:600}
.views a:hover{background:var(--accent-tint);color:var(--text)}
.views a[aria-current]{background:var(--accent);color:var(--on-accent)}
/* The group clips what is outside it: the ring goes inside, in the colour that reads on the fill. */
.views a:focus,.views a:focus-visible{outline-offset:-4px}
.views a[aria-current]:focus,.views a[aria-current]:focus-visible{outline-color:var(--on-accent)}
.site-footer{display:flex;flex-wrap:wrap;gap:var(--space-4) var(--space-6);justify-content:space-between;align-items:flex-start;border-top:1px solid var(--border);margin-top:var(--space-7);padding:var(--space-5) 0}
.menu summary{cursor:pointer;display:list-item;font-weight:600;color:var(--accent)}
.menu ul{padding:var(--space-2) 0}
.footer-languages ul{gap:var(--space-1) var(--space-3)}

/* Lists of events: cards */
.event{display:grid;gap:var(--space-1);margin:0 0 var(--space-3)}
.event h2,.event h3,.event h4{margin:0;font-size:var(--step-1)}
.event h3 a,.event h2 a,.event h4 a{text-decoration:none}
.event h3 a:hover,.event h2 a:hover,.event h4 a:hover{text-decoration:underline}
.event:hover{border-color:var(--border-strong)}
.event img{border-radius:var(--radius);max-height:12rem;width:auto;justify-self:start}
.event p{margin:0}
@media (min-width:48rem){.event:has(>img){grid-template-columns:1fr 14rem;column-gap:var(--space-5)}.event>img{grid-column:2;grid-row:1/span 8;justify-self:end}.event>:not(img){grid-column:1}}
.schedule{margin:var(--space-1) 0;color:var(--text);font-weight:600}
.cost{font-weight:600}
.terms{list-style:none;padding:0;margin:var(--space-1) 0 0;display:flex;flex-wrap:wrap;gap:var(--space-1) var(--space-3);font-size:var(--step--1)}
section>h2{margin-top:var(--space-6)}
.paging ul{justify-content:space-between;align-items:center;margin:var(--space-4) 0}
.paging a,.paging .disabled{display:inline-flex;align-items:center;min-height:2.25rem;padding:var(--space-1) var(--space-3);border:1px solid var(--border);border-radius:var(--radius);text-decoration:none}
.paging a:hover{border-color:var(--accent)}
.paging .disabled{border-style:dashed}

/* Month grid: chips in cells */
table.month{width:100%;border-collapse:collapse;table-layout:fixed;margin:var(--space-3) 0}
.month caption{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.month th{padding:var(--space-2);font-size:var(--step--1);font-weight:600;text-align:left;color:var(--text-muted);background:var(--surface-sunken);border:1px solid var(--border)}
.month td{border:1px solid var(--border);vertical-align:top;padding:var(--space-1) var(--space-1) var(--space-2);height:7.5rem;overflow-wrap:anywhere;background:var(--bg)}
.day-number{margin:0 0 var(--space-1);font-size:var(--step--1);font-weight:700}
.day-number>a,.day-number>time{display:inline-flex;align-items:center;justify-content:center;min-width:1.75rem;min-height:1.75rem;padding:0 .25rem;border-radius:999px}
.day-number>a{text-decoration:none}
.day-number>a:hover{text-decoration:underline}
.month .other .day-number,.month .other .day-number>a{color:var(--text-muted);font-weight:500}
.month .today .day-number>a,.month .today .day-number>time{background:var(--accent);color:var(--on-accent)}
.month ul{list-style:none;padding:0;margin:0;display:grid;gap:3px;font-size:.8125rem;line-height:1.3}
.month li{margin:0;padding:.1875rem .375rem;border-radius:4px;border-left:3px solid var(--accent);background:var(--accent-tint);color:var(--text)}
.month li a{color:var(--text);font-weight:600;text-decoration:none}
.month li a:hover{text-decoration:underline}
.month li time{font-variant-numeric:tabular-nums;font-weight:400}
.month li.spanning,.month li.continues{border-left-style:double;border-left-width:4px}
.month li.more{background:none;border:0;padding-left:0}
.month li.more a{color:var(--accent)}
.month .featured-label{margin-left:var(--space-1);font-size:.6875rem;vertical-align:.1em}
.month li.continues{color:var(--text-muted);font-style:italic}
.day-count a{font-weight:600}

/* Single pages */
dl.details{display:grid;grid-template-columns:max-content 1fr;gap:var(--space-1) var(--space-4)}
dl.details dt{font-weight:700}
dl.details dd{margin:0}
.description{overflow-wrap:anywhere;max-width:48rem}
.description img{border-radius:var(--radius)}
.add-to-calendar{margin:var(--space-5) 0}
section.card{margin:var(--space-4) 0;max-width:48rem}
section.card>h2:first-child{margin-top:0;font-size:var(--step-1)}
dl .terms{font-size:inherit}
.password input{margin:0 var(--space-2)}

@media (max-width:767.98px){
  body{padding:0 var(--space-3)}
  h1{font-size:var(--step-3)}
  .bar{padding:var(--space-3)}
  .search p,.search p:first-child{flex:1 1 100%}
  .search p:last-child{padding-top:0}
  .search input{width:100%}
  table.month,.month thead,.month tbody,.month tr,.month td{display:block;width:100%}
  .month thead{display:none}
  .month td{height:auto;border:0;border-bottom:1px solid var(--border);padding:var(--space-2) 0}
  .month td.empty{display:none}
  .day-number .vh{position:static!important;width:auto;height:auto;clip:auto;white-space:normal;font-weight:600}
  .paging ul{gap:var(--space-2)}
}
@media (prefers-reduced-motion:reduce){*{transition:none!important;animation:none!important}}
/* Photo and summary views (130 §5, §6) */
.photos{list-style:none;padding:0;margin:var(--space-4) 0;display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,16rem),1fr));gap:var(--space-4)}
.photo{height:100%;padding:0;overflow:hidden}
.photo img,.photo-placeholder{display:block;width:100%;aspect-ratio:4/3;height:auto;object-fit:cover;background:var(--surface-sunken)}
.photo h2{font-size:var(--step-1);margin:var(--space-3) var(--space-4) var(--space-2)}
.photo .schedule,.photo .place{margin:var(--space-1) var(--space-4) var(--space-3)}
.summary{list-style:none;padding:0;margin:0}
.summary li{padding:var(--space-2) 0;border-bottom:1px solid var(--border)}
.summary time{font-variant-numeric:tabular-nums;margin-right:var(--space-2)}
.ongoing{font-weight:600;margin-right:var(--space-2)}
/* Map view (130 §7): the map above its venues; Leaflet's popups and attribution in the page's colours */
#calendar-map{height:min(60vh,28rem);margin:var(--space-4) 0;border:1px solid var(--border);border-radius:var(--radius-lg)}
.map-venue{margin:var(--space-4) 0}
.map-venue h3{margin-top:0}
.map-events{list-style:none;padding:0;margin:var(--space-2) 0 0}
.map-events li{padding:var(--space-1) 0}
.map-events time{margin-right:var(--space-2)}
.leaflet-popup-content-wrapper,.leaflet-popup-tip,.leaflet-container .leaflet-control-attribution{background:var(--surface);color:var(--text)}
.leaflet-container .leaflet-popup-content a,.leaflet-container .leaflet-control-attribution a{color:var(--accent)}
.leaflet-container .leaflet-marker-icon:focus-visible{outline:var(--focus-width) solid var(--accent);outline-offset:2px}
/* Embed pages (130 §10.1): the host page gives the width and the margins. */
body.embed{max-width:none;padding:0 var(--space-2)}
body.embed h1{font-size:var(--step-3);margin-top:var(--space-3)}
.full-calendar{margin:var(--space-4) 0}
@media print{
  body{max-width:none;padding:0;font-size:11pt}
  .skip,.site-header nav,.bar,.site-footer,.menu,nav.paging,.notices:empty{display:none!important}
  .site-header{border-bottom:2px solid var(--text)}
  a{color:inherit;text-decoration:none}
  .event{break-inside:avoid;border:0;border-bottom:1px solid var(--border-strong);border-radius:0;padding:var(--space-2) 0}
  .event img,.description img{max-height:6rem}
  .featured-label{border:1px solid var(--text);background:none;color:var(--text)}
  h1,h2,h3{break-after:avoid}
}
`;

/**
 * The one stylesheet of the pages (55 §13) for a configured accent: the light theme, the dark
 * one for screens that prefer it (print always uses the light one), then the design system.
 */
export function stylesheet(accent: string): Asset {
  const body = `${themeProperties('light', accent)}\n@media screen and (prefers-color-scheme:dark){${themeProperties('dark', accent)}}\n${DESIGN}\n${WEEK_STYLES}\n${ADMIN_STYLES}\n${SUBMISSION_STYLES}`;
  return hashedAsset('calendar', 'css', 'text/css; charset=utf-8', body);
}
