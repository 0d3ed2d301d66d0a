/**
 * Gives `target` a member `key` worked out by `build` when first read, after which it is a plain
 * member holding that value; enumerable and assignable like one from the start: copies, spreads,
 * JSON and deep comparisons see its value.
 */
export function defineLazy<T extends object, K extends keyof T>(target: T, key: K, build: () => T[K]): void {
  Object.defineProperty(target, key, {
    get: () => settleLazy(target, key, build()),
    set: (v: T[K]) => void settleLazy(target, key, v),
    enumerable: true,
    configurable: true,
  });
}

/**
 * Makes `target[key]` a plain member holding `value` (enumerable and assignable) and returns the
 * value. For objects made often, `defineLazy`'s effect with less work: the object is written as a
 * literal whose accessor pair for `key` calls this on the first read (with the built value) or
 * write (with the value written), so it keeps its fast shape until then. On an object frozen or
 * sealed before that, the accessor stays: each read works the value out again.
 */
export function settleLazy<T extends object, K extends keyof T>(target: T, key: K, value: T[K]): T[K] {
  try {
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  } catch {
    // Frozen or sealed before: the accessor stays, and each read works the same value out again.
  }
  return value;
}
