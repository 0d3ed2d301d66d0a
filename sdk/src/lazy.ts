/**
 * Gives `target` a member `key` worked out by `build` when first read, after which it is a plain
 * member holding that value; enumerable and assignable like one from the start: copies, spreads,
 * JSON and deep comparisons see its value.
 */
export function defineLazy<T extends object, K extends keyof T>(target: T, key: K, build: () => T[K]): void {
  const settle = (value: T[K]): T[K] => {
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
    return value;
  };
  Object.defineProperty(target, key, {
    get: () => settle(build()),
    set: (v: T[K]) => void settle(v),
    enumerable: true,
    configurable: true,
  });
}
