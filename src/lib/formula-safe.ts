const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * Escapes a cell that a spreadsheet would run as a formula (leading = + - @ tab CR), for files people
 * open in Excel. Only for exports: never applied to data sent to the API.
 */
export const formulaSafe = (value: string): string => (FORMULA_START.test(value) ? `'${value}` : value);
