/** Sets an own, enumerable member, even one named "__proto__" (which a plain assignment makes the prototype). */
export function setOwn<T>(target: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(target, key, { value, enumerable: true, configurable: true, writable: true });
}
