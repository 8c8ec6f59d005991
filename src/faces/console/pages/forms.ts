/** Small readers of form fields (c.req.parseBody() values). */
export const formText = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

/** A form or query value as a trimmed non-empty string, else undefined. */
export const given = (value: unknown): string | undefined => {
  const text = formText(value)?.trim();
  return text ? text : undefined;
};

/** Whole number in [min, max], or undefined. */
export function intIn(value: unknown, min: number, max: number): number | undefined {
  const text = given(value);
  if (text === undefined || !/^-?\d+$/.test(text)) return undefined;
  const n = Number(text);
  return n >= min && n <= max ? n : undefined;
}
