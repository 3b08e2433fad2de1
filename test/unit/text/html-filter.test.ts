import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  escapeHtmlAttr,
  filterRichHtml,
  plainTextExcerpt,
  sanitizeTermName,
  stripAllTags,
} from '../../../src/domain/text/html-filter.ts';

describe('filterRichHtml', () => {
  it('keeps the allowed formatting tags', () => {
    const html = '<p><b>b</b> <strong>s</strong> <i>i</i> <em>e</em> <u>u</u> <code>c</code> <span>sp</span></p>'
      + '<ul><li>1</li></ul><ol><li>2</li></ol><blockquote>q</blockquote><pre>p</pre>'
      + '<h2>2</h2><h3>3</h3><h4>4</h4><h5>5</h5><h6>6</h6>';
    assert.equal(filterRichHtml(html), html);
  });

  it('writes <br> self-closed and keeps line breaks', () => {
    assert.equal(filterRichHtml('one<br>\ntwo\n\nthree'), 'one<br />\ntwo\n\nthree');
  });

  it('removes scripts and styles together with their content', () => {
    assert.equal(filterRichHtml('a<script>alert(1)</script>b<style>p{color:red}</style>c'), 'abc');
  });

  it('removes other tags but keeps their text', () => {
    assert.equal(filterRichHtml('<div><h1>Title</h1><font>text</font></div>'), 'Titletext');
    assert.equal(filterRichHtml('x<img src="a.png" onerror="alert(1)">y'), 'xy');
  });

  it('removes event handlers and every attribute outside a[href,title]', () => {
    assert.equal(
      filterRichHtml('<p onclick="x()" class="c"><a href="https://ex.org/" title="T" onmouseover="y()" target="_blank">l</a></p>'),
      '<p><a href="https://ex.org/" title="T">l</a></p>',
    );
    assert.equal(filterRichHtml('<span style="color:red">s</span>'), '<span>s</span>');
  });

  it('removes javascript: and data: links, however they are disguised', () => {
    assert.equal(filterRichHtml('<a href="javascript:alert(1)">x</a>'), '<a>x</a>');
    assert.equal(filterRichHtml('<a href=" JaVaScRiPt:alert(1)">x</a>'), '<a>x</a>');
    assert.equal(filterRichHtml('<a href="jav&#x61;script:alert(1)">x</a>'), '<a>x</a>');
    assert.equal(filterRichHtml('<a href="data:text/html,x">x</a>'), '<a>x</a>');
  });

  it('keeps relative, mailto and tel links', () => {
    const html = '<a href="/events/">r</a><a href="mailto:a@ex.org">m</a><a href="tel:+4512">t</a>';
    assert.equal(filterRichHtml(html), html);
  });
});

describe('stripAllTags (sanitize_text_field)', () => {
  it('strips tags, and script content with them', () => {
    assert.equal(stripAllTags('<b>12 Main St</b><script>x()</script>'), '12 Main St');
  });

  it('collapses line breaks, tabs and spaces to one space and trims', () => {
    assert.equal(stripAllTags('  12 Main\r\n\tSt   Apt 4 \n'), '12 Main St Apt 4');
  });

  it('removes percent escapes, also those formed by a removal', () => {
    assert.equal(stripAllTags('a%20b %2Fc'), 'ab c');
    assert.equal(stripAllTags('x %%4141 y'), 'x y');
    assert.equal(stripAllTags('100% sure'), '100% sure');
  });

  it('escapes a "<" that opens no tag instead of swallowing the rest', () => {
    assert.equal(stripAllTags('5 < 6 & 7'), '5 &lt; 6 &amp; 7');
  });

  it('leaves text without "<" unescaped', () => {
    assert.equal(stripAllTags('Tom & Jerry "quoted"'), 'Tom & Jerry "quoted"');
  });
});

describe('sanitizeTermName', () => {
  it('strips tags, collapses whitespace, trims', () => {
    assert.equal(sanitizeTermName('  <b>Live</b>\n\tMusic   Night '), 'Live Music Night');
  });

  it('encodes &, < and > without double-encoding existing entities', () => {
    assert.equal(sanitizeTermName('Jazz & Blues'), 'Jazz &amp; Blues');
    assert.equal(sanitizeTermName('Jazz &amp; Blues &#8211; &eacute;'), 'Jazz &amp; Blues &#8211; &eacute;');
    assert.equal(sanitizeTermName('Fake &entity; here'), 'Fake &amp;entity; here');
    assert.equal(sanitizeTermName('a > b'), 'a &gt; b');
  });

  it('keeps quotes as they are', () => {
    assert.equal(sanitizeTermName(`Rock 'n' "Roll"`), `Rock 'n' "Roll"`);
  });

  it('gives "" for a name that is only whitespace or tags', () => {
    assert.equal(sanitizeTermName(' \n\t '), '');
    assert.equal(sanitizeTermName('<i></i>'), '');
  });
});

describe('escapeHtmlAttr', () => {
  it('escapes &, <, >, " and \' as entities', () => {
    assert.equal(escapeHtmlAttr(`https://ex.org/?a=1&b="2"&c='3'<x>`), 'https://ex.org/?a=1&amp;b=&quot;2&quot;&amp;c=&#039;3&#039;&lt;x&gt;');
  });

  it('does not double-encode an existing entity', () => {
    assert.equal(escapeHtmlAttr('https://ex.org/?a=1&amp;b=2'), 'https://ex.org/?a=1&amp;b=2');
  });

  it('leaves a plain URL unchanged', () => {
    assert.equal(escapeHtmlAttr('https://ex.org/path'), 'https://ex.org/path');
  });
});

describe('plainTextExcerpt', () => {
  it('strips tags, decodes entities and collapses whitespace', () => {
    assert.equal(plainTextExcerpt('<p>Jazz &amp;   <b>Blues</b>\n night</p>'), 'Jazz & Blues night');
  });

  it('separates words at block boundaries but not at inline tags', () => {
    assert.equal(plainTextExcerpt('<p>One</p><p>Two<br />Three</p> <b>Fo</b>ur'), 'One Two Three Four');
  });

  it('drops script and style content', () => {
    assert.equal(plainTextExcerpt('a<script>var x;</script> b'), 'a b');
  });

  it('cuts to 55 words by default with an ellipsis', () => {
    const words = Array.from({ length: 60 }, (_, i) => `w${i + 1}`);
    const expected = `${words.slice(0, 55).join(' ')}…`;
    assert.equal(plainTextExcerpt(words.join(' ')), expected);
    assert.equal(plainTextExcerpt(words.slice(0, 55).join(' ')), words.slice(0, 55).join(' '));
  });

  it('honours a custom word count', () => {
    assert.equal(plainTextExcerpt('one two three', 2), 'one two…');
    assert.equal(plainTextExcerpt('one two', 2), 'one two');
  });

  it('gives "" for empty input', () => {
    assert.equal(plainTextExcerpt(''), '');
  });
});
