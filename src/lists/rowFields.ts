/**
 * One field of a list's item that a row shows or an order uses, declared once: the row's "looks the same" test and an
 * order's placement and "same place" test are all derived from the same declarations, so they can never name
 * different fields (a field a row shows but its test forgot would leave a changed row on screen). A text field that
 * orders naturally is `textField`, with the order it takes its placement from (src/lists/grouping.ts). Pure.
 */
export interface Field<T> {
  /** Reads the field from an item. */
  read(value: T): unknown;
  /** Whether two readings are the same; default `===`. */
  same?(a: unknown, b: unknown): boolean;
  /** The reading as a part of a placement (how it orders); default its text. */
  place?(reading: unknown): string;
}

/** A field compared with `===`, placed by its text. */
export function field<T>(read: (value: T) => unknown): Field<T> {
  return { read };
}

/** True when every field reads the same in both items. */
export function sameFields<T>(fields: readonly Field<T>[]): (a: T, b: T) => boolean {
  return (a, b) => {
    for (const f of fields) {
      const x = f.read(a);
      const y = f.read(b);
      if (f.same ? !f.same(x, y) : x !== y) return false;
    }
    return true;
  };
}

/** An order's placement (what decides an item's place: its fields' placements joined) and "same place" test. */
export function placedBy<T>(fields: readonly Field<T>[]): {
  placement(value: T): string;
  samePlace(a: T, b: T): boolean;
} {
  return {
    placement: (value) => joinPlacement(fields.map((f) => (f.place ? f.place(f.read(value)) : String(f.read(value))))),
    samePlace: sameFields(fields),
  };
}

/**
 * Parts of a placement joined so that different parts never make the same string: the parts may be service text that
 * holds the separator (a NUL), so a NUL or backslash inside a part is escaped first.
 */
export function joinPlacement(parts: readonly string[]): string {
  return parts.map((part) => part.replace(SEPARATOR_OR_ESCAPE, (c) => (c === '\\' ? '\\\\' : '\\0'))).join('\u0000');
}

// eslint-disable-next-line no-control-regex -- the NUL is the separator this escapes
const SEPARATOR_OR_ESCAPE = /[\u0000\\]/g;
