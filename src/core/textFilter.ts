// The views' text filters (Titles, Activity): words that must all appear, each in some field,
// ignoring case. An empty filter matches everything.

export class TextFilter {
  readonly text: string;
  private readonly words: readonly string[];

  constructor(text = '') {
    this.text = text.trim();
    // Stryker disable next-line Regex: splitting on single spaces gives the same words once the empty ones are dropped
    this.words = this.text.toLowerCase().split(/\s+/).filter((w) => w.length > 0);
  }

  get active(): boolean {
    return this.words.length > 0;
  }

  matches(fields: readonly (string | number | undefined | null | false)[]): boolean {
    // Stryker disable next-line ConditionalExpression: a shortcut; every() of no words is true as well
    if (this.words.length === 0) return true;
    const hay = fields.filter((x) => typeof x === 'string' || typeof x === 'number').join('\n').toLowerCase();
    return this.words.every((w) => hay.includes(w));
  }
}
