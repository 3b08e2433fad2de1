import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { autop } from '../../../src/domain/text/autop.ts';

describe('autop', () => {
  it('wraps a single block in a paragraph (spec example)', () => {
    assert.equal(autop('An event content'), '<p>An event content</p>');
  });

  it('keeps empty and blank text empty', () => {
    assert.equal(autop(''), '');
    assert.equal(autop(' \n\t\n '), '');
  });

  it('makes one paragraph per blank-line separated block, joined by newlines', () => {
    assert.equal(autop('one\n\ntwo\n\n\n\nthree'), '<p>one</p>\n<p>two</p>\n<p>three</p>');
    assert.equal(autop('one\n  \ntwo'), '<p>one</p>\n<p>two</p>');
  });

  it('turns single line breaks inside a block into <br />', () => {
    assert.equal(autop('line one\nline two'), '<p>line one<br />\nline two</p>');
  });

  it('normalises Windows and old Mac line endings', () => {
    assert.equal(autop('a\r\n\r\nb\rc'), '<p>a</p>\n<p>b<br />\nc</p>');
  });

  it('trims the result', () => {
    assert.equal(autop('\n\n  hello  \n\n'), '<p>  hello  </p>');
  });

  it('does not wrap blocks that start with a block-level element', () => {
    assert.equal(autop('<p>already</p>'), '<p>already</p>');
    assert.equal(autop('<ul>\n<li>a</li>\n<li>b</li>\n</ul>'), '<ul>\n<li>a</li>\n<li>b</li>\n</ul>');
    assert.equal(autop('<h2>Title</h2>\n\ntext'), '<h2>Title</h2>\n<p>text</p>');
    assert.equal(autop('<section>s</section>'), '<section>s</section>');
  });

  it('separates text from block elements written on adjacent lines', () => {
    assert.equal(autop('Intro\n<div>x\ny</div>\nafter'), '<p>Intro</p>\n<div>x<br />\ny</div>\n<p>after</p>');
  });

  it('moves the paragraph inside a blockquote', () => {
    assert.equal(autop('<blockquote>quoted</blockquote>'), '<blockquote><p>quoted</p></blockquote>');
  });

  it('turns two consecutive <br> into a paragraph break', () => {
    assert.equal(autop('one<br><br />two'), '<p>one</p>\n<p>two</p>');
  });

  it('keeps <pre> content untouched', () => {
    assert.equal(autop('<pre>a\n\nb</pre>\n\nz'), '<pre>a\n\nb</pre>\n<p>z</p>');
  });

  it('keeps line breaks inside tags and inside scripts', () => {
    assert.equal(autop('<a\nhref="x">link</a>'), '<p><a\nhref="x">link</a></p>');
    assert.equal(autop('<script>a\nb</script>'), '<p><script>a\nb</script></p>');
  });

  it('keeps existing <br /> without doubling it', () => {
    assert.equal(autop('a<br />\nb'), '<p>a<br />\nb</p>');
    assert.equal(autop('a<br>\nb'), '<p>a<br />\nb</p>');
  });

  it('keeps inline markup inside the paragraph', () => {
    assert.equal(autop('<strong>Bold</strong> start'), '<p><strong>Bold</strong> start</p>');
  });

  it('keeps form options glued to their select', () => {
    assert.equal(autop('<select>\n<option>a</option>\n\n<option>b</option>\n</select>'), '<p><select><option>a</option><option>b</option></select></p>');
  });
});
