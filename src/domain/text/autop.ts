import { phpTrim } from './strip-tags.ts';

// Port of WordPress wpautop(), which the reference applies to descriptions and
// excerpts on output. The service returns its result trimmed (10 §3.9).

const BLOCKS =
  '(?:table|thead|tfoot|caption|col|colgroup|tbody|tr|td|th|div|dl|dd|dt|ul|ol|li|pre|form|map|area|blockquote|address|style|p|h[1-6]|hr|fieldset|legend|section|article|aside|hgroup|header|footer|nav|figure|figcaption|details|menu|summary)';

// PHP's \s, which unlike JavaScript's does not include no-break or other
// Unicode spaces; those are content and must not be swallowed.
const S = '[\\t\\n\\v\\f\\r ]';

const re = (source: string, flags = 'g'): RegExp => new RegExp(source, flags);

const TWO_BRS = re(`<br${S}*/?>${S}*<br${S}*/?>`);
const BLOCK_OPEN = re(`(<${BLOCKS}[\\t\\n\\v\\f\\r />])`);
const BLOCK_CLOSE = re(`(</${BLOCKS}>)`);
const HR = re(`(<hr${S}*?/?>)`);
// wp_html_split(): comments, CDATA and tags, whose newlines are protected.
const HTML_TOKEN = /(<(?:!--[^]*?(?:-->|$)|!\[CDATA\[[^]*?(?:\]\]>|$)|[^>]*>?))/;
const NEWLINE_PLACEHOLDER = ' <!-- wpnl --> ';
const EMPTY_PARAGRAPH = re(`<p>${S}*</p>`);
const WRAPPED_BLOCK_TAG = re(`<p>${S}*(</?${BLOCKS}[^>]*>)${S}*</p>`);
const P_BEFORE_BLOCK_TAG = re(`<p>${S}*(</?${BLOCKS}[^>]*>)`);
const P_AFTER_BLOCK_TAG = re(`(</?${BLOCKS}[^>]*>)${S}*</p>`);
const NEWLINE_NOT_AFTER_BR = re(`(?<!<br />)${S}*\\n`);
const BR_AFTER_BLOCK_TAG = re(`(</?${BLOCKS}[^>]*>)${S}*<br />`);
const BR_BEFORE_BLOCK_TAG = re(`<br />(${S}*</?(?:p|li|div|dl|dd|dt|th|pre|td|ul|ol)[^>]*>)`);
const PRESERVE_NEWLINE = '<WPPreserveNewline />';

export function autop(text: string): string {
  if (phpTrim(text) === '') return '';
  const { text: withoutPre, pres } = protectPre(text + '\n');
  let html = withoutPre
    .replace(TWO_BRS, '\n\n')
    .replace(BLOCK_OPEN, '\n\n$1')
    .replace(BLOCK_CLOSE, '$1\n\n')
    .replace(HR, '$1\n\n')
    .replace(/\r\n|\r/g, '\n');
  html = protectNewlinesInTags(html);
  html = collapseAroundInlineBlocks(html);
  html = html
    .replace(/\n\n+/g, '\n\n')
    .split(re(`\\n${S}*\\n`, ''))
    .filter((paragraph) => paragraph !== '')
    .map((paragraph) => `<p>${phpTrim(paragraph, '\n')}</p>\n`)
    .join('');
  html = html
    .replace(EMPTY_PARAGRAPH, '')
    .replace(/<p>([^<]+)<\/(div|address|form)>/g, '<p>$1</p></$2>')
    .replace(WRAPPED_BLOCK_TAG, '$1')
    .replace(/<p>(<li.+?)<\/p>/g, '$1')
    .replace(/<p><blockquote([^>]*)>/gi, '<blockquote$1><p>')
    .replaceAll('</blockquote></p>', '</p></blockquote>')
    .replace(P_BEFORE_BLOCK_TAG, '$1')
    .replace(P_AFTER_BLOCK_TAG, '$1');
  html = insertLineBreaks(html)
    .replace(BR_AFTER_BLOCK_TAG, '$1')
    .replace(BR_BEFORE_BLOCK_TAG, '$1')
    .replace(/\n<\/p>$/, '</p>');
  for (const [placeholder, pre] of pres) html = html.replaceAll(placeholder, () => pre);
  html = html.replaceAll(NEWLINE_PLACEHOLDER, '\n').replaceAll('<!-- wpnl -->', '\n');
  return phpTrim(html);
}

// <pre> content keeps its line breaks untouched.
function protectPre(text: string): { text: string; pres: Map<string, string> } {
  const pres = new Map<string, string>();
  if (!text.includes('<pre')) return { text, pres };
  const parts = text.split('</pre>');
  let result = '';
  parts.slice(0, -1).forEach((part) => {
    const start = part.indexOf('<pre');
    if (start === -1) {
      result += part;
      return;
    }
    const placeholder = `<pre wp-pre-tag-${pres.size}></pre>`;
    pres.set(placeholder, `${part.slice(start)}</pre>`);
    result += part.slice(0, start) + placeholder;
  });
  return { text: result + parts[parts.length - 1], pres };
}

// A line break inside a tag (between attributes) is not a paragraph break.
function protectNewlinesInTags(text: string): string {
  return text
    .split(HTML_TOKEN)
    .map((piece, index) => (index % 2 === 1 ? piece.replaceAll('\n', NEWLINE_PLACEHOLDER) : piece))
    .join('');
}

// Form options, embedded objects, media sources and captions must stay glued
// to their parents, or they would be split into paragraphs.
function collapseAroundInlineBlocks(text: string): string {
  let html = text;
  if (html.includes('<option')) {
    html = html.replace(re(`${S}*<option`), '<option').replace(re(`</option>${S}*`), '</option>');
  }
  if (html.includes('</object>')) {
    html = html
      .replace(re(`(<object[^>]*>)${S}*`), '$1')
      .replace(re(`${S}*</object>`), '</object>')
      .replace(re(`${S}*(</?(?:param|embed)[^>]*>)${S}*`), '$1');
  }
  if (html.includes('<source') || html.includes('<track')) {
    html = html
      .replace(re(`([<\\[](?:audio|video)[^>\\]]*[>\\]])${S}*`), '$1')
      .replace(re(`${S}*([<\\[]/(?:audio|video)[>\\]])`), '$1')
      .replace(re(`${S}*(<(?:source|track)[^>]*>)${S}*`), '$1');
  }
  if (html.includes('<figcaption')) {
    html = html.replace(re(`${S}*(<figcaption[^>]*>)`), '$1').replace(re(`</figcaption>${S}*`), '</figcaption>');
  }
  return html;
}

// Remaining single newlines become <br />, except inside script, style, svg
// and math, where they are code rather than layout.
function insertLineBreaks(html: string): string {
  return html
    .replace(/<(script|style|svg|math).*?<\/\1>/gs, (element) => element.replaceAll('\n', PRESERVE_NEWLINE))
    .replaceAll('<br>', '<br />')
    .replaceAll('<br/>', '<br />')
    .replace(NEWLINE_NOT_AFTER_BR, '<br />\n')
    .replaceAll(PRESERVE_NEWLINE, '\n');
}
