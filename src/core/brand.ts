// Our error classes recognised across bundles: a bundle (the extension's lazy ones, a test's)
// may hold its own copy of a class, and `instanceof` against another copy is false. A branded
// class answers `instanceof` by a globally registered symbol its instances carry instead.
export function brand<C extends abstract new (...args: never[]) => object>(cls: C, name: string): C {
  const key = Symbol.for(`platformExplorer.brand.${name}`);
  Object.defineProperty(cls.prototype, key, { value: true });
  Object.defineProperty(cls, Symbol.hasInstance, {
    value(this: unknown, x: unknown): boolean {
      // A subclass without a brand of its own is checked the usual way.
      if (this !== cls) return Function.prototype[Symbol.hasInstance].call(this, x);
      return typeof x === 'object' && x !== null && (x as Record<symbol, unknown>)[key] === true;
    },
  });
  return cls;
}
