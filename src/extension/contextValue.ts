// A view item's contextValue: its flags, each once, sorted and joined by ';' (package.json's
// `when` clauses match one with `viewItem =~ /\bflag\b/`). Used by every view's items.

export function flags(...f: (string | false | undefined)[]): string {
  return [...new Set(f.filter((x): x is string => typeof x === 'string' && x.length > 0))].sort().join(';');
}
