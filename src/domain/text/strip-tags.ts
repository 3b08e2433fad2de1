// Ports of PHP strip_tags and WordPress wp_strip_all_tags: several stored
// fields must come out exactly as the reference stores them.

// A tag starts at "<" followed by a non-space (PHP treats "< 3" as text) and
// runs to the first ">" outside quotes; an unclosed tag or comment swallows
// the rest of the input, as in PHP.
const TAG = /<!--[\s\S]*?(?:-->|$)|<(?=[^\t\n\v\f\r <])(?:"[^"]*(?:"|$)|'[^']*(?:'|$)|[^"'>])*(?:>|$)/g;

const SCRIPT_OR_STYLE = /<(script|style)[^>]*?>[\s\S]*?<\/\1>/gi;

export function stripTags(text: string): string {
  return text.replace(TAG, '');
}

/** wp_strip_all_tags without break removal: script/style bodies go too, then trimmed. */
export function stripAllTagsAndScripts(text: string): string {
  return phpTrim(stripTags(text.replace(SCRIPT_OR_STYLE, '')));
}

/** PHP trim(): unlike String#trim it keeps no-break and other Unicode spaces. */
export function phpTrim(text: string, chars = ' \t\n\r\0\x0B'): string {
  let start = 0;
  let end = text.length;
  while (start < end && chars.includes(text[start]!)) start++;
  while (end > start && chars.includes(text[end - 1]!)) end--;
  return text.slice(start, end);
}
