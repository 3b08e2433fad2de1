import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { phpTrim, stripAllTagsAndScripts, stripTags } from '../../../src/domain/text/strip-tags.ts';

describe('stripTags (PHP strip_tags)', () => {
  it('removes tags and comments, keeping the text', () => {
    assert.equal(stripTags('<p class="x">a <b>b</b></p><!-- note -->c'), 'a bc');
  });

  it('does not end a tag at a ">" inside quotes', () => {
    assert.equal(stripTags('<a title="1 > 0">x</a>'), 'x');
  });

  it('treats "<" followed by a space as text', () => {
    assert.equal(stripTags('1 < 2 and 3 > 2'), '1 < 2 and 3 > 2');
  });

  it('lets an unclosed tag swallow the rest', () => {
    assert.equal(stripTags('a <b c'), 'a ');
  });
});

describe('stripAllTagsAndScripts (wp_strip_all_tags)', () => {
  it('removes script and style elements with their content, then trims', () => {
    assert.equal(stripAllTagsAndScripts(' <SCRIPT type="x">bad()</SCRIPT>ok<style>p{}</style> '), 'ok');
  });
});

describe('phpTrim', () => {
  it('trims PHP whitespace but keeps no-break spaces', () => {
    assert.equal(phpTrim(' \t\n\r\0\x0Bx\u00a0 '), 'x\u00a0');
  });

  it('trims the given characters only', () => {
    assert.equal(phpTrim('\n\n a \n', '\n'), ' a ');
  });
});
