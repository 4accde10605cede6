const GRAPHEMES = new Intl.Segmenter("en", { granularity: "grapheme" });

/**
 * The longest start of `text` of at most `max` characters (code points, as JSON Schema's
 * `maxLength` and the question model count them) that ends between two graphemes: a cut never
 * splits a surrogate pair, an emoji sequence or a letter from its accents.
 */
export function cutText(text: string, max: number): string {
  let characters = 0;
  for (const { segment, index } of GRAPHEMES.segment(text)) {
    characters += [...segment].length;
    if (characters > max) return text.slice(0, index);
  }
  return text;
}

/** `text` as it is when at most `max` characters, else cut (see {@link cutText}) and ended with `…`. */
export function shorten(text: string, max: number): string {
  return [...text].length <= max ? text : `${cutText(text, max - 1)}…`;
}
