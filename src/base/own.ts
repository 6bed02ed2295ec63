/**
 * A field of a value from outside (a command's argument, a stored value) as the shape checks read it: a plain object's
 * own property, never an inherited one (a polluted prototype adds no field); undefined for anything else (null, an
 * array, a number, a string). Pure.
 */
export function own(value: unknown, key: string): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  return Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
}
