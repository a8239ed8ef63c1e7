import { InvalidArgumentError } from "commander";

/** commander parsers that reject a bad flag value with a message naming the flag's expectation. */
export const parseNumber =
  (what: string, check: (n: number) => boolean = Number.isFinite) =>
  (value: string): number => {
    const n = Number(value);
    if (value.trim() === "" || !check(n)) throw new InvalidArgumentError(`expected ${what}, got "${value}"`);
    return n;
  };

export const nonNegative = parseNumber("a number >= 0", (n) => Number.isFinite(n) && n >= 0);
export const positive = parseNumber("a number > 0", (n) => Number.isFinite(n) && n > 0);
export const port = parseNumber("a port 0-65535", (n) => Number.isInteger(n) && n >= 0 && n <= 65535);
export const integer = parseNumber("an integer", Number.isInteger);
export const share = parseNumber("a share between 0 and 1", (n) => n >= 0 && n <= 1);
