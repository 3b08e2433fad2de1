import { createHash } from 'node:crypto';

/**
 * The one stylesheet of the pages (55 §13), kept in the code so it ships inside the bundle. No
 * web fonts; colours meet WCAG 2.2 AA (text ≥ 4.5:1, focus ring ≥ 3:1 on white).
 */
export const STYLESHEET = `
*{box-sizing:border-box}
html{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.5;color:#1a1a1a;background:#fff}
body{margin:0 auto;max-width:72rem;padding:0 1rem}
a{color:#0b57a4}
a:hover{color:#063a70}
:focus-visible{outline:3px solid #0b57a4;outline-offset:2px}
a:focus,button:focus,input:focus,summary:focus,main:focus{outline:3px solid #0b57a4;outline-offset:2px}
.skip{position:absolute;left:-10000px;top:0;padding:.5rem 1rem;background:#fff}
.skip:focus{left:1rem;z-index:10}
.site-header{display:flex;flex-wrap:wrap;justify-content:space-between;align-items:center;gap:.5rem;border-bottom:1px solid #767676;padding:.5rem 0}
.site-name{font-weight:700;font-size:1.25rem;margin:0}
ul{padding-left:1.25rem}
nav ul,.menu ul{list-style:none;padding:0;margin:0;display:flex;flex-wrap:wrap;gap:.25rem 1rem}
nav a,.menu a,summary,button{display:inline-block;min-height:24px;min-width:24px;padding:.125rem .25rem}
a[aria-current]{font-weight:700}
.bar{display:flex;flex-wrap:wrap;gap:1rem;align-items:flex-end;justify-content:space-between;padding:.75rem 0}
.search{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:flex-end}
.search p{margin:0;display:flex;flex-direction:column}
.hint{font-size:.875rem;color:#4d4d4d}
input,button{font:inherit;padding:.25rem .5rem;border:1px solid #767676;border-radius:2px;max-width:100%}
button{background:#0b57a4;color:#fff;border-color:#0b57a4;cursor:pointer}
.notices:empty{display:none}
.notices,.alert{padding:.5rem;border-left:4px solid #0b57a4;background:#f3f6fa}
.alert{border-color:#b00020}
.featured-label{display:inline-block;font-size:.8125rem;font-weight:700;border:1px solid #8a4b00;color:#8a4b00;padding:0 .25rem;margin-left:.25rem}
.event{border-bottom:1px solid #d0d0d0;padding:.5rem 0}
.event h2,.event h3,.event h4{margin:.25rem 0}
.event img{max-width:100%;height:auto;max-height:12rem}
.schedule{margin:.25rem 0;color:#333}
address{font-style:normal}
.paging ul{justify-content:space-between}
.disabled{color:#595959}
table.month{width:100%;border-collapse:collapse;table-layout:fixed}
.month caption{text-align:left;font-weight:700;padding:.25rem 0}
.month th,.month td{border:1px solid #999;vertical-align:top;padding:.25rem;overflow-wrap:anywhere}
.month td{height:6rem}
.month .other{background:#f2f2f2}
.month .today .day-number{text-decoration:underline;text-decoration-thickness:3px}
.month ul{list-style:none;padding:0;margin:0;font-size:.875rem}
.month li{margin:.125rem 0}
.day-number{font-weight:700}
.vh{position:absolute!important;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.continues{color:#4d4d4d;font-style:italic}
dl.details{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}
dl.details dt{font-weight:700}
dl.details dd{margin:0}
.description{overflow-wrap:anywhere}
.description img{max-width:100%;height:auto}
.preview{background:#fff3cd;border:1px solid #8a6d00;padding:.5rem}
.site-footer{border-top:1px solid #767676;margin-top:2rem;padding:1rem 0}
.menu summary{cursor:pointer;display:list-item}
.menu ul{padding:.5rem 0}
@media (max-width:767.98px){
  table.month,.month thead,.month tbody,.month tr,.month td,.month caption{display:block;width:100%}
  .month thead{display:none}
  .month td{height:auto;border:0;border-bottom:1px solid #999}
  .month td.empty{display:none}
}
@media (prefers-reduced-motion:reduce){*{transition:none!important;animation:none!important}}
`;

const version = createHash('sha256').update(STYLESHEET).digest('base64url').slice(0, 10);

/** Under `{base}`; the version changes with the content, so it may be cached for long. */
export const STYLESHEET_PATH = `/assets/calendar.css?v=${version}`;
