/** The phone of one row: the first valid number among its phone columns, in rank order. Pure. */
import type { CountryCode } from "libphonenumber-js/max";
import type { PhoneColumn } from "./headers.ts";
import { mayHoldSeveral, splitValues } from "./multi-value.ts";
import { normalizePhone } from "./phone.ts";
import { isNever, kindOfLabel, type NeverKind, type PhoneKind, rankOf } from "./phone-kind.ts";
import { cleanCell } from "./text.ts";

/** A value tried and refused. */
export interface PhoneTry {
  header: string;
  value: string;
  code: string;
  message: string;
}

export type PhonePick =
  /** `refused`: values tried before the one used (a fallback). */
  | { ok: true; e164: string; header: string; refused: readonly PhoneTry[] }
  /** `refused` is empty when every phone cell is empty. */
  | { ok: false; refused: readonly PhoneTry[] };

const NONE: readonly PhoneTry[] = Object.freeze([]);
const labelKinds = new Map<string, PhoneKind | NeverKind>();
function labelKind(label: string): PhoneKind | NeverKind {
  let kind = labelKinds.get(label);
  if (kind === undefined) {
    kind = kindOfLabel(label);
    if (labelKinds.size < 1000) labelKinds.set(label, kind);
  }
  return kind;
}

/**
 * The phone columns of a row in the order to try them: a label cell may move its column up, or out
 * (a fax); values moved out are added to `never`.
 */
function rowOrder(
  cells: readonly string[],
  phones: readonly PhoneColumn[],
  never: PhoneTry[],
): PhoneColumn[] {
  const order: { phone: PhoneColumn; rank: number; at: number }[] = [];
  phones.forEach((phone, at) => {
    if (phone.labelColumn === undefined) {
      order.push({ phone, rank: rankOf(phone.kind), at });
      return;
    }
    const label = cleanCell(cells[phone.labelColumn]);
    const kind = labelKind(label);
    if (!isNever(kind)) {
      order.push({ phone, rank: rankOf(kind), at });
      return;
    }
    const value = cleanCell(cells[phone.column]);
    if (value !== "") {
      never.push({
        header: phone.header,
        value,
        code: "phone_never_called",
        message: `"${value}" is labelled "${label}": a ${kind} number is never called`,
      });
    }
  });
  return order.sort((a, b) => a.rank - b.rank || a.at - b.at).map((o) => o.phone);
}

const picked = (e164: string, phone: PhoneColumn, tried: PhoneTry[] | undefined): PhonePick => ({
  ok: true,
  e164,
  header: phone.header,
  refused: tried ?? NONE,
});
/** `list` with `t` added; a list is made only for the first refusal. */
function appended(list: PhoneTry[] | undefined, t: PhoneTry): PhoneTry[] {
  if (list === undefined) return [t];
  list.push(t);
  return list;
}
const refusal = (phone: PhoneColumn, value: string, r: { code: string; message: string }): PhoneTry => ({
  header: phone.header,
  value,
  code: r.code,
  message: r.message,
});

/**
 * Tries the row's phone columns in order, and each value of a multi-value cell in order; the first
 * valid number wins. With `labelled`, label cells reorder the columns of this row.
 */
export function pickPhone(
  cells: readonly string[],
  phones: readonly PhoneColumn[],
  labelled: boolean,
  country: CountryCode | undefined,
  maxChars: number,
): PhonePick {
  // Allocated only when a value is refused: most rows have one valid number.
  let tried: PhoneTry[] | undefined;
  const never: PhoneTry[] | undefined = labelled ? [] : undefined;
  for (const phone of never ? rowOrder(cells, phones, never) : phones) {
    const raw = cleanCell(cells[phone.column]);
    if (raw === "") continue;
    if (raw.length > maxChars) {
      const message = `phone is ${raw.length} characters long; the limit is ${maxChars}`;
      tried = appended(tried, refusal(phone, `${raw.slice(0, 50)}…`, { code: "value_too_long", message }));
      continue;
    }
    if (!mayHoldSeveral(raw)) {
      const result = normalizePhone(raw, country);
      if (result.ok) return picked(result.e164, phone, tried);
      tried = appended(tried, refusal(phone, raw, result));
      continue;
    }
    const values = splitValues(raw);
    for (const value of values) {
      const result = normalizePhone(value, country);
      if (result.ok) return picked(result.e164, phone, tried);
      tried = appended(tried, refusal(phone, value, result));
    }
    if (values.length > 1) {
      // "030 / 1234567" may be one number written with a spaced slash.
      const whole = normalizePhone(raw, country);
      if (whole.ok) return picked(whole.e164, phone, tried);
    }
  }
  return { ok: false, refused: never?.length ? [...(tried ?? NONE), ...never] : (tried ?? NONE) };
}

const tryText = (t: PhoneTry, many: boolean) => (many ? `${t.header}: ${t.message}` : t.message);

/** Why a row has no phone, naming every column tried. */
export function noPhoneMessage(refused: readonly PhoneTry[], phones: readonly PhoneColumn[]): string {
  const many = phones.length > 1;
  if (refused.length === 0) {
    return many ? `no phone number in ${phones.map((p) => `"${p.header}"`).join(", ")}` : "no phone number";
  }
  const tried = new Set(refused.map((t) => t.header));
  const empty = phones.filter((p) => !tried.has(p.header)).map((p) => `"${p.header}"`);
  return [
    refused.map((t) => tryText(t, many)).join("; "),
    ...(many && empty.length ? [`empty: ${empty.join(", ")}`] : []),
  ].join("; ");
}

/** Why a valid number came from a later column or value: the values refused before it. */
export function fallbackMessage(refused: readonly PhoneTry[], header: string, phones: number): string {
  return `${refused.map((t) => tryText(t, phones > 1)).join("; ")}; the number in "${header}" is used`;
}
