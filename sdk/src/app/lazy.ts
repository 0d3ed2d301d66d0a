/**
 * Gives `target` a member `key` worked out by `build` when first read (then kept), enumerable and
 * assignable like a plain member: copies, spreads, JSON and deep comparisons see its value.
 */
export function defineLazy<T extends object, K extends keyof T>(target: T, key: K, build: () => T[K]): void {
  let value: T[K] | undefined;
  let built = false;
  Object.defineProperty(target, key, {
    get: () => {
      if (!built) {
        value = build();
        built = true;
      }
      return value;
    },
    set: (v: T[K]) => {
      value = v;
      built = true;
    },
    enumerable: true,
    configurable: true,
  });
}
