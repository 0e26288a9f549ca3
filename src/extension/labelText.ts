// Text shown in a view's label, description or tooltip line: one line, at most `n` characters
// (cut with "…"), control, zero-width and bidi-override characters shown as spaces, so service or
// user text can neither break the line nor reorder what is shown around it.

const UNSHOWN = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g;

export function clip(s: string, n = 80): string {
  return (s.length > n ? `${s.slice(0, n)}…` : s).replace(UNSHOWN, ' ');
}
